import type { PageTokens } from '../core/page-token.js';
import type { Store } from './store.js';
import type { CountCache } from './count-cache.js';

/** What every service implementation is built with. */
export interface ServiceDeps {
  store: Store;
  pageTokens: PageTokens;
  counts: CountCache;
}

import type { PageTokens } from '../core/page-token.js';
import type { Store } from './store.js';

/** What every service implementation is built with. */
export interface ServiceDeps {
  store: Store;
  pageTokens: PageTokens;
}

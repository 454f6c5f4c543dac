import type { PageTokens } from '../core/page-token.js';
import type { Store } from './store.js';
import type { CountCache } from './count-cache.js';

/** Who may create root organizations through the API (`--allow-org-creation`). */
export type OrgCreationPolicy = 'owners' | 'anyone' | 'nobody';

/** What every service implementation is built with. */
export interface ServiceDeps {
  store: Store;
  pageTokens: PageTokens;
  counts: CountCache;
  orgCreation: OrgCreationPolicy;
}

// What every SCIM operation works with: the store, the authenticated
// provider, and the base URL its resources' locations start with.
import type { Store } from '../../store/store.js';
import type { ScimProvider } from './scim-bearer.js';

export interface ScimContext {
  store: Store;
  provider: ScimProvider;
  /** …/scim/v2/{provider uid} */
  base: string;
  /** The SCIM client's IP address, for the audit log. */
  address: string;
}

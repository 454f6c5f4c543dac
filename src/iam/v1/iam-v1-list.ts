// Which IAM v1 list the shared v1 walk (src/list/v1-list.ts) runs: IAM's
// error domain and the v2 route that pages, named in TOO_MANY_RESULTS.
import type { V1List } from '../../list/v1-list.js';
import { IAM_DOMAIN } from '../errors.js';

export function iamList(v2Path: string): V1List {
  return { domain: IAM_DOMAIN, what: 'items', v2Path };
}

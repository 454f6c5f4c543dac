// Where the feed's advisories live: the organization first start created,
// where `berth advisories import` writes by default. Only the advisories an
// import wrote there are served (source other than "api"): never those
// imported into another group with --group, nor those operators create
// through the API, in the organization or anywhere else.
import { firstStartOrganization } from '../../iam/first-start-organization.js';
import type { Store } from '../../store/store.js';

/** The feed group's uid, or undefined before first start (or once that group is gone). */
export async function feedGroup(store: Store): Promise<string | undefined> {
  return (await firstStartOrganization(store.db))?.uid;
}

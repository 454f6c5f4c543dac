// The organization first start created (its uid is the settings row
// "bootstrap" first start claims): the default home of what an operator
// imports, and the group whose imported advisories the public feed serves.
import type { Executor } from '../store/transact.js';

export const BOOTSTRAP_SETTING = 'bootstrap';

/** Its uid and name; undefined before first start, or once the group is deleted. */
export async function firstStartOrganization(db: Executor): Promise<{ uid: string; name: string } | undefined> {
  return db
    .selectFrom('settings')
    .innerJoin('groups', 'groups.uid', 'settings.value')
    .select(['groups.uid', 'groups.name'])
    .where('settings.key', '=', BOOTSTRAP_SETTING)
    .executeTakeFirst();
}

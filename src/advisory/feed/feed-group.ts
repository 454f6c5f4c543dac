// Where the feed's advisories live: the group whose uid the settings table
// holds under `advisories.feed_group` (written by the first import, or set
// with `--feed-group`). The feed is public: only this group's advisories
// are served, never those operators keep in their own groups.
import { getSetting } from '../../store/settings-store.js';
import type { Store } from '../../store/store.js';

export const FEED_GROUP_SETTING = 'advisories.feed_group';

/** The feed group's uid, or undefined before anything was imported. */
export function feedGroup(store: Store): Promise<string | undefined> {
  return getSetting(store, FEED_GROUP_SETTING);
}

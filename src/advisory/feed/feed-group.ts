// Where the feed's advisories live: the group whose uid the settings table
// holds under `advisories.feed_group` (written by the first import, see
// src/vulnerabilities/import/feed-group.ts). The feed is public: only this
// group's advisories are served, never those operators keep in their own
// groups.
import { getSetting } from '../../store/settings-store.js';
import type { Store } from '../../store/store.js';
import { FEED_GROUP_SETTING } from '../../vulnerabilities/import/feed-group.js';

/** The feed group's uid, or undefined before anything was imported. */
export function feedGroup(store: Store): Promise<string | undefined> {
  return getSetting(store, FEED_GROUP_SETTING);
}

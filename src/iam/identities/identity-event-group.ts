// The group an identity's events belong to: the group it was created in. A
// root-level identity (a person registered by sign in) lives in no group; its
// events carry its own uid, which no subscription is on, so they reach nobody
// outside Berth.
import { parentOf } from '../../core/uidp.js';

export function identityEventGroup(uid: string): string {
  return parentOf(uid) || uid;
}

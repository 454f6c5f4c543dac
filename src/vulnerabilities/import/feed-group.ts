// The group imported advisories live under: --feed-group when given, else the
// one stored in settings (advisories.feed_group), else a root group named
// "advisory-feed" created on the first import (its creation is the same
// api.iam.group.created.v1 a CreateGroup writes, with no actor). Callers see
// the advisories through roles bound on that group, as for any resource.
import { GroupSchema, GroupsService } from '../../gen/berth/iam/v2/groups_pb.js';
import { emitDeclaredEvent } from '../../events/rpc-event.js';
import { groupFromRow } from '../../iam/groups/group-row.js';
import { nowIso } from '../../core/clock.js';
import { isValidUid, newRootUid } from '../../core/uidp.js';
import type { Tx } from '../../store/transact.js';
import { ImportError } from './normalized-advisory.js';

export const FEED_GROUP_SETTING = 'advisories.feed_group';
export const FEED_GROUP_NAME = 'advisory-feed';

export interface FeedGroup {
  uid: string;
  /** True when this call created the group (in `tx`). */
  created: boolean;
}

/** Resolves (and on first use creates and records) the feed group inside `tx`. */
export async function resolveFeedGroup(tx: Tx, requested?: string): Promise<FeedGroup> {
  const stored = await tx.selectFrom('settings').select('value').where('key', '=', FEED_GROUP_SETTING).executeTakeFirst();
  if (requested !== undefined && requested !== '') {
    if (!isValidUid(requested)) throw new ImportError('--feed-group', 0, `"${requested.slice(0, 80)}" is not a group uid`);
    const found = await tx.selectFrom('groups').select('uid').where('uid', '=', requested).executeTakeFirst();
    if (!found) throw new ImportError('--feed-group', 0, `no group ${requested}`);
    // The first feed group named is the one the feed endpoints serve from then on.
    if (!stored) await tx.insertInto('settings').values({ key: FEED_GROUP_SETTING, value: requested }).execute();
    return { uid: requested, created: false };
  }
  if (stored) {
    const found = await tx.selectFrom('groups').select('uid').where('uid', '=', stored.value).executeTakeFirst();
    if (found) return { uid: stored.value, created: false };
  }
  // An existing root group of that name is taken over rather than duplicated (root names are unique).
  const named = await tx.selectFrom('groups').select('uid').where('parent_uid', 'is', null).where('name', '=', FEED_GROUP_NAME).executeTakeFirst();
  let uid = named?.uid;
  let created = false;
  if (!uid) {
    const now = nowIso();
    const row = {
      uid: newRootUid(),
      parent_uid: null,
      name: FEED_GROUP_NAME,
      description: 'Imported security advisories (berth advisories import)',
      verified: 0,
      create_time: now,
      update_time: now,
    };
    await tx.insertInto('groups').values(row).execute();
    await emitDeclaredEvent(tx, GroupsService.method.createGroup, {
      group: row.uid,
      subject: row.uid,
      actor: '',
      schema: GroupSchema,
      message: groupFromRow(row),
    });
    uid = row.uid;
    created = true;
  }
  if (stored) await tx.updateTable('settings').set({ value: uid }).where('key', '=', FEED_GROUP_SETTING).execute();
  else await tx.insertInto('settings').values({ key: FEED_GROUP_SETTING, value: uid }).execute();
  return { uid, created };
}

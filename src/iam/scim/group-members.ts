// A group's members, written and read. Setting them re-syncs the mapping
// bindings of every user whose membership changed — and of every member when
// the group's names changed — when a mapping of the provider names the group
// (scim-membership.ts), in the same transaction.
import type { Executor, Tx } from '../../store/transact.js';
import { scimInvalidValue, scimTooMany } from './scim-errors.js';
import type { MemberView } from './group-resource.js';
import { resyncGroupMembers } from './scim-membership.js';
import { SCIM_LIMITS } from './scim-schemas.js';

export async function memberIds(db: Executor, providerUid: string, groupId: string): Promise<string[]> {
  const rows = await db
    .selectFrom('scim_group_members')
    .select('user_id')
    .where('provider_uid', '=', providerUid)
    .where('group_id', '=', groupId)
    .orderBy('user_id')
    .execute();
  return rows.map((r) => r.user_id);
}

/** Members of each group, with the display name clients show (displayName, else userName). */
export async function membersOf(db: Executor, providerUid: string, groupIds: readonly string[]): Promise<Map<string, MemberView[]>> {
  const out = new Map<string, MemberView[]>(groupIds.map((g) => [g, []]));
  if (groupIds.length === 0) return out;
  const rows = await db
    .selectFrom('scim_group_members as m')
    .innerJoin('scim_users as u', (j) => j.onRef('u.provider_uid', '=', 'm.provider_uid').onRef('u.id', '=', 'm.user_id'))
    .select(['m.group_id as group_id', 'u.id as id', 'u.display_name as display_name', 'u.user_name as user_name'])
    .where('m.provider_uid', '=', providerUid)
    .where('m.group_id', 'in', groupIds)
    .orderBy('m.group_id')
    .orderBy('u.id')
    .execute();
  for (const r of rows) out.get(r.group_id)?.push({ value: r.id, display: r.display_name || r.user_name });
  return out;
}

export interface MembershipChange {
  providerUid: string;
  groupId: string;
  before: readonly string[];
  after: readonly string[];
  /** The group's displayName and externalId before and after the change. */
  names: readonly string[];
  renamed: boolean;
}

export async function setMembers(tx: Tx, c: MembershipChange): Promise<void> {
  const before = new Set(c.before);
  const after = new Set(c.after);
  const added = [...after].filter((m) => !before.has(m));
  const removed = [...before].filter((m) => !after.has(m));
  if (added.length + removed.length > SCIM_LIMITS.membersPerRequest)
    throw scimTooMany(`a request may add or remove at most ${SCIM_LIMITS.membersPerRequest} members`);
  if (added.length > 0) {
    const known = await tx.selectFrom('scim_users').select('id').where('provider_uid', '=', c.providerUid).where('id', 'in', added).execute();
    const knownIds = new Set(known.map((k) => k.id));
    const unknown = added.find((m) => !knownIds.has(m));
    if (unknown !== undefined) throw scimInvalidValue(`member ${JSON.stringify(unknown)} is not a User of this provider`);
    await tx
      .insertInto('scim_group_members')
      .values(added.map((user_id) => ({ provider_uid: c.providerUid, group_id: c.groupId, user_id })))
      .execute();
  }
  if (removed.length > 0)
    await tx
      .deleteFrom('scim_group_members')
      .where('provider_uid', '=', c.providerUid)
      .where('group_id', '=', c.groupId)
      .where('user_id', 'in', removed)
      .execute();
  const affected = c.renamed ? [...new Set([...before, ...after])] : [...added, ...removed];
  await resyncGroupMembers(tx, c.providerUid, c.names, affected);
}

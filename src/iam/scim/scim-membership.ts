// SCIM group membership as an input of the external group role mappings.
// A mapping names an external group; a user is in it when the provider's ID
// token says so at sign in (the groups claim) or when the provider's SCIM
// client put the user in a SCIM group whose displayName or externalId is that
// name. syncGroupBindings makes the user's mapping bindings match the union:
// at sign in (groupsAtSignIn), and whenever SCIM changes the user's groups or
// activity (resyncScimUser), with the groups of the last sign in kept in
// scim_users.token_groups so a SCIM change does not drop what the token gave.
import { MAX_SYNC_GROUPS } from '../../auth/login-directory.js';
import type { Tx } from '../../store/transact.js';
import { scimUserDeprovisioned } from '../errors.js';
import { syncGroupBindings } from '../group-mappings/sync-group-bindings.js';

/** The displayName and externalId of every SCIM group of the provider the user is in. */
export async function scimGroupNames(tx: Tx, providerUid: string, userId: string): Promise<string[]> {
  const rows = await tx
    .selectFrom('scim_group_members as m')
    .innerJoin('scim_groups as g', (j) => j.onRef('g.provider_uid', '=', 'm.provider_uid').onRef('g.id', '=', 'm.group_id'))
    .select(['g.display_name as display_name', 'g.external_id as external_id'])
    .where('m.provider_uid', '=', providerUid)
    .where('m.user_id', '=', userId)
    .execute();
  const names = new Set<string>();
  for (const r of rows) {
    names.add(r.display_name);
    if (r.external_id) names.add(r.external_id);
  }
  return [...names];
}

/** Only names some mapping of the provider uses matter; the rest would only crowd the sync's bound. */
async function mappedNames(tx: Tx, providerUid: string, names: readonly string[]): Promise<string[]> {
  if (names.length === 0) return [];
  const used = await tx.selectFrom('external_group_role_mappings').select('external_group_id').distinct().where('parent_uid', '=', providerUid).execute();
  const set = new Set(used.map((u) => u.external_group_id));
  return names.filter((n) => set.has(n));
}

function union(a: readonly string[], b: readonly string[]): string[] {
  const out = [...new Set([...a, ...b])];
  if (out.length > MAX_SYNC_GROUPS) throw new RangeError(`at most ${MAX_SYNC_GROUPS} external groups per user, got ${out.length}`);
  return out;
}

/**
 * What a sign in through the provider syncs: the token's groups and, for a
 * user the provider's SCIM client provisions, its SCIM groups. Refuses a user
 * the client deactivated, and remembers the token's groups for later SCIM
 * changes.
 */
export async function groupsAtSignIn(tx: Tx, providerUid: string, identityUid: string, tokenGroups: readonly string[]): Promise<string[]> {
  const user = await tx.selectFrom('scim_users').select(['active']).where('provider_uid', '=', providerUid).where('id', '=', identityUid).executeTakeFirst();
  if (!user) return [...tokenGroups];
  if (user.active !== 1) throw scimUserDeprovisioned();
  await tx
    .updateTable('scim_users')
    .set({ token_groups: JSON.stringify([...new Set(tokenGroups)]) })
    .where('provider_uid', '=', providerUid)
    .where('id', '=', identityUid)
    .execute();
  return union(tokenGroups, await mappedNames(tx, providerUid, await scimGroupNames(tx, providerUid, identityUid)));
}

/** Makes an active provisioned user's mapping bindings match its groups now; nothing for one without an identity. */
export async function resyncScimUser(tx: Tx, providerUid: string, id: string): Promise<void> {
  const user = await tx
    .selectFrom('scim_users')
    .select(['active', 'token_groups'])
    .where('provider_uid', '=', providerUid)
    .where('id', '=', id)
    .executeTakeFirst();
  if (user?.active !== 1) return;
  if (!(await tx.selectFrom('identities').select('uid').where('uid', '=', id).executeTakeFirst())) return;
  const scim = await mappedNames(tx, providerUid, await scimGroupNames(tx, providerUid, id));
  await syncGroupBindings(tx, id, providerUid, union(JSON.parse(user.token_groups) as string[], scim));
}

/** Re-syncs every member of the given groups, when a mapping of the provider names one of them. */
export async function resyncGroupMembers(tx: Tx, providerUid: string, groupNames: readonly string[], members: Iterable<string>): Promise<void> {
  if ((await mappedNames(tx, providerUid, groupNames)).length === 0) return;
  for (const id of new Set(members)) await resyncScimUser(tx, providerUid, id);
}

/** Re-syncs the members of the provider's SCIM groups called `name`: a new mapping of that name applies to them at once. */
export async function resyncMembersOfGroupsNamed(tx: Tx, providerUid: string, name: string): Promise<void> {
  const rows = await tx
    .selectFrom('scim_group_members as m')
    .innerJoin('scim_groups as g', (j) => j.onRef('g.provider_uid', '=', 'm.provider_uid').onRef('g.id', '=', 'm.group_id'))
    .select('m.user_id as user_id')
    .distinct()
    .where('g.provider_uid', '=', providerUid)
    .where((eb) => eb.or([eb('g.display_name', '=', name), eb('g.external_id', '=', name)]))
    .orderBy('m.user_id')
    .execute();
  for (const r of rows) await resyncScimUser(tx, providerUid, r.user_id);
}

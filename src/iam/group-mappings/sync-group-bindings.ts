// What the sign-in flow calls after a person signs in through an identity
// provider, with the groups the provider's token says they are in: the
// person's role bindings made by that provider's mappings are made to match
// those groups exactly, inside the sign in's transaction.
// - A mapping whose external group is among `groups` yields one binding of its
//   role on its scope (several mappings yielding the same role on the same
//   group make one binding).
// - A binding some mapping of this provider made, that no matched mapping
//   yields any more, is deleted: the person left the group, or the binding was
//   changed since.
// - Bindings made any other way (mapping_uid NULL) or by another provider's
//   mappings are never touched; when one already gives the person that role on
//   that group, no second binding is made.
// - A mapping whose scope lies above the identity's own group (an identity
//   created under a group is scoped to it) yields nothing, nor does one whose
//   creator was deleted or could no longer bind its role on its scope
//   (grant-authority.ts): its bindings are deleted like those of a group the
//   person left.
// New bindings are written by writeBinding, the only binding writer, marked
// with the mapping that made them so they go with it when it is deleted.
import { bindingWithinIdentityScope } from '../../auth/identity-scope.js';
import { MAX_SYNC_GROUPS } from '../../auth/login-directory.js';
import type { Tx } from '../../store/transact.js';
import { existingBinding } from '../role-bindings/existing-binding.js';
import { GrantAuthority } from '../role-bindings/grant-authority.js';
import { keepOwners } from '../role-bindings/owner-bindings.js';
import { writeBinding } from '../role-bindings/write-binding.js';

export interface SyncResult {
  /** uids of the bindings made. */
  added: string[];
  /** uids of the bindings deleted. */
  removed: string[];
}

const keyOf = (group: string, role: string) => `${group}\n${role}`;

export async function syncGroupBindings(tx: Tx, identityUid: string, providerUid: string, groups: readonly string[]): Promise<SyncResult> {
  if (groups.length > MAX_SYNC_GROUPS) throw new RangeError(`at most ${MAX_SYNC_GROUPS} external groups per sign in, got ${groups.length}`);
  const member = new Set(groups);
  const mappings = await tx
    .selectFrom('external_group_role_mappings')
    .select(['uid', 'external_group_id', 'role_uid', 'scope_uid', 'created_by'])
    .where('parent_uid', '=', providerUid)
    .orderBy('uid')
    .execute();
  const authority = new GrantAuthority(tx);
  const matched = [];
  for (const m of mappings) {
    if (!member.has(m.external_group_id) || !bindingWithinIdentityScope(identityUid, m.scope_uid)) continue;
    if (await authority.holds(m.created_by, m.role_uid, m.scope_uid)) matched.push(m);
  }
  const matchedByUid = new Map(matched.map((m) => [m.uid, m]));
  // The first matching mapping (by uid) of each role-on-group makes its binding.
  const wanted = new Map<string, (typeof matched)[number]>();
  for (const m of matched) if (!wanted.has(keyOf(m.scope_uid, m.role_uid))) wanted.set(keyOf(m.scope_uid, m.role_uid), m);

  const made = await tx
    .selectFrom('role_bindings as rb')
    .innerJoin('external_group_role_mappings as m', 'm.uid', 'rb.mapping_uid')
    .select(['rb.uid as uid', 'rb.parent_uid as parent_uid', 'rb.role_uid as role_uid', 'rb.mapping_uid as mapping_uid'])
    .where('rb.identity_uid', '=', identityUid)
    .where('m.parent_uid', '=', providerUid)
    .orderBy('rb.uid')
    .execute();
  const kept = new Set<string>();
  const removed: string[] = [];
  for (const b of made) {
    const key = keyOf(b.parent_uid, b.role_uid);
    const m = b.mapping_uid === null ? undefined : matchedByUid.get(b.mapping_uid);
    if (m && keyOf(m.scope_uid, m.role_uid) === key && !kept.has(key)) kept.add(key);
    else removed.push(b.uid);
  }
  // An organization's last owner binding is not taken away: the sign in is refused instead (lastOwnerBinding).
  if (removed.length > 0) await keepOwners(tx, { bindings: removed }, () => tx.deleteFrom('role_bindings').where('uid', 'in', removed).execute());

  const added: string[] = [];
  for (const [key, m] of wanted) {
    if (kept.has(key)) continue;
    if (await existingBinding(tx, m.scope_uid, identityUid, m.role_uid)) continue;
    const row = await writeBinding(tx, { parent: m.scope_uid, identityUid, roleUid: m.role_uid, mappingUid: m.uid });
    added.push(row.uid);
  }
  return { added, removed };
}

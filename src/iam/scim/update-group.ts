// PUT /Groups/{id} (the group replaced whole, members included) and PATCH
// /Groups/{id} (operations on {displayName, externalId, members}: add and
// remove members, `members[value eq "…"]`, a replaced displayName). Either
// ends in one write of the row and of the membership change.
import { nowIso } from '../../core/clock.js';
import { capabilitiesOf } from '../../store/db-capabilities.js';
import { transact, type Tx } from '../../store/transact.js';
import type { ScimContext } from './scim-context.js';
import { scimNotFound } from './scim-errors.js';
import { type GroupFields, groupFields, groupResource } from './group-resource.js';
import { memberIds, membersOf, setMembers } from './group-members.js';
import type { Json } from './scim-json.js';
import { applyPatch, patchOperations } from './scim-patch.js';
import { GROUP_SCHEMA } from './scim-schemas.js';
import type { ScimGroupsTable } from './scim-tables.js';
import { auditScim } from './scim-audit.js';

async function lockedGroup(tx: Tx, c: ScimContext, id: string): Promise<ScimGroupsTable> {
  const q = tx.selectFrom('scim_groups').selectAll().where('provider_uid', '=', c.provider.uid).where('id', '=', id);
  const row = await capabilitiesOf(tx).lockRows(q, 'exclusive').executeTakeFirst();
  if (!row) throw scimNotFound('Group', id);
  return row;
}

async function writeGroup(tx: Tx, c: ScimContext, row: ScimGroupsTable, before: string[], f: GroupFields, withMembers: boolean): Promise<Json> {
  const next: ScimGroupsTable = { ...row, display_name: f.displayName, external_id: f.externalId ?? null, version: row.version + 1, update_time: nowIso() };
  await tx
    .updateTable('scim_groups')
    .set({ display_name: next.display_name, external_id: next.external_id, version: next.version, update_time: next.update_time })
    .where('provider_uid', '=', c.provider.uid)
    .where('id', '=', row.id)
    .execute();
  const names = [...new Set([row.display_name, next.display_name, ...[row.external_id, next.external_id].filter((n): n is string => !!n)])];
  const renamed = row.display_name !== next.display_name || row.external_id !== next.external_id;
  await setMembers(tx, { providerUid: c.provider.uid, groupId: row.id, before, after: f.members, names, renamed });
  await auditScim(tx, c, 'Groups.update', { id: row.id, name: f.displayName });
  const members = withMembers ? (await membersOf(tx, c.provider.uid, [row.id])).get(row.id) : undefined;
  return groupResource(next, members, c.base);
}

export async function replaceGroup(c: ScimContext, id: string, body: unknown): Promise<Json> {
  const f = groupFields(body);
  return transact(c.store, async (tx) => {
    const row = await lockedGroup(tx, c, id);
    return writeGroup(tx, c, row, await memberIds(tx, c.provider.uid, id), f, true);
  });
}

/** The patched group; without its members when the client excluded them (Entra ID does). */
export async function patchGroup(c: ScimContext, id: string, body: unknown, withMembers: boolean): Promise<Json> {
  const ops = patchOperations(body);
  return transact(c.store, async (tx) => {
    const row = await lockedGroup(tx, c, id);
    const before = await memberIds(tx, c.provider.uid, id);
    const current: Json = {
      displayName: row.display_name,
      ...(row.external_id === null ? {} : { externalId: row.external_id }),
      members: before.map((value) => ({ value })),
    };
    return writeGroup(tx, c, row, before, groupFields(applyPatch(current, ops, GROUP_SCHEMA)), withMembers);
  });
}

// POST /Groups (RFC 7644 §3.3): a group and its first members.
import { nowIso } from '../../core/clock.js';
import { transact } from '../../store/transact.js';
import type { ScimContext } from './scim-context.js';
import { groupFields, groupResource, newGroupId } from './group-resource.js';
import { membersOf, setMembers } from './group-members.js';
import type { Json } from './scim-json.js';
import type { ScimGroupsTable } from './scim-tables.js';
import { auditScim } from './scim-audit.js';

export async function createGroup(c: ScimContext, body: unknown): Promise<Json> {
  const f = groupFields(body);
  return transact(c.store, async (tx) => {
    const now = nowIso();
    const row: ScimGroupsTable = {
      provider_uid: c.provider.uid,
      id: newGroupId(),
      display_name: f.displayName,
      external_id: f.externalId ?? null,
      version: 1,
      create_time: now,
      update_time: now,
    };
    await tx.insertInto('scim_groups').values(row).execute();
    const names = [f.displayName, ...(f.externalId ? [f.externalId] : [])];
    await setMembers(tx, { providerUid: c.provider.uid, groupId: row.id, before: [], after: f.members, names, renamed: false });
    await auditScim(tx, c, 'Groups.create', { id: row.id, name: f.displayName });
    const members = await membersOf(tx, c.provider.uid, [row.id]);
    return groupResource(row, members.get(row.id), c.base);
  });
}

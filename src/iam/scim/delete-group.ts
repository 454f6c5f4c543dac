// DELETE /Groups/{id}: the group and its memberships go; its members lose
// what a mapping gave them for it.
import { transact } from '../../store/transact.js';
import type { ScimContext } from './scim-context.js';
import { scimNotFound } from './scim-errors.js';
import { memberIds } from './group-members.js';
import { resyncGroupMembers } from './scim-membership.js';
import { auditScim } from './scim-audit.js';

export async function deleteGroup(c: ScimContext, id: string): Promise<void> {
  await transact(c.store, async (tx) => {
    const row = await tx.selectFrom('scim_groups').selectAll().where('provider_uid', '=', c.provider.uid).where('id', '=', id).executeTakeFirst();
    if (!row) throw scimNotFound('Group', id);
    const members = await memberIds(tx, c.provider.uid, id);
    await tx.deleteFrom('scim_groups').where('provider_uid', '=', c.provider.uid).where('id', '=', id).execute();
    await resyncGroupMembers(tx, c.provider.uid, [row.display_name, ...(row.external_id ? [row.external_id] : [])], members);
    await auditScim(tx, c, 'Groups.delete', { id, name: row.display_name });
  });
}

// DELETE /Users/{id} (RFC 7644 §3.6): the user, its memberships and its
// identity go (scim-provisioning.ts); a later GET answers 404.
import { transact } from '../../store/transact.js';
import type { ScimContext } from './scim-context.js';
import { scimNotFound } from './scim-errors.js';
import { deactivateIdentity } from './scim-provisioning.js';
import { auditScim } from './scim-audit.js';

export async function deleteUser(c: ScimContext, id: string): Promise<void> {
  await transact(c.store, async (tx) => {
    const gone = await tx.deleteFrom('scim_users').where('provider_uid', '=', c.provider.uid).where('id', '=', id).returning('user_name').executeTakeFirst();
    if (!gone) throw scimNotFound('User', id);
    await deactivateIdentity(tx, id);
    await auditScim(tx, c, 'Users.delete', { id, name: gone.user_name });
  });
}

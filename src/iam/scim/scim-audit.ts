// The audit entry of a SCIM change (docs/audit.md), written in its
// transaction: the provider's SCIM client is who made it (its uid in the
// identity field, as no identity did), in the provider's group; the user's
// or group's id and name, never the resource body.
import { writeAuditEntry } from '../../events/audit/audit-writer.js';
import type { Tx } from '../../store/transact.js';
import type { ScimContext } from './scim-context.js';

export function auditScim(
  tx: Tx,
  c: Pick<ScimContext, 'provider' | 'address'>,
  action: 'Users.create' | 'Users.update' | 'Users.delete' | 'Groups.create' | 'Groups.update' | 'Groups.delete',
  resource: { id: string; name: string },
): Promise<void> {
  return writeAuditEntry(tx, {
    group: c.provider.parent_uid,
    identity: c.provider.uid,
    action: `scim.${action}`,
    resourceUid: resource.id,
    resourceType: action.startsWith('Users') ? 'scim.user' : 'scim.group',
    resourceName: resource.name,
    address: c.address,
    outcome: 'succeeded',
  });
}

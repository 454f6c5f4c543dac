// The audit entry of a registry delete (DELETE /v2/<name>/manifests/… or
// /blobs/…), which writes no event, so the route writes its entry itself, in
// the delete's transaction and only when something was deleted.
import type { FastifyRequest } from 'fastify';
import { parentOf } from '../core/uidp.js';
import { writeAuditEntry } from '../events/audit/audit-writer.js';
import type { Tx } from '../store/transact.js';
import type { RegistryAccess } from './authorize-repo.js';

export function auditRegistryDelete(
  tx: Tx,
  request: FastifyRequest,
  access: RegistryAccess,
  repoUid: string,
  what: { type: 'manifest' | 'tag' | 'blob'; reference: string },
): Promise<void> {
  const separator = what.type === 'tag' ? ':' : '@';
  return writeAuditEntry(tx, {
    group: parentOf(repoUid),
    identity: access.subject,
    action: 'registry.delete',
    resourceUid: repoUid,
    resourceType: `registry.${what.type}`,
    resourceName: `${access.target.name}${separator}${what.reference}`,
    address: request.ip,
    outcome: 'succeeded',
  });
}

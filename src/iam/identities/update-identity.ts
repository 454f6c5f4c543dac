import type { HandlerContext } from '@connectrpc/connect';
import { emitRpcEvent } from '../../events/rpc-event.js';
import { identityEventGroup } from './identity-event-group.js';
import { transact } from '../../store/transact.js';
import { IdentitySchema, type Identity, type UpdateIdentityRequest } from '../../gen/berth/iam/v2/identities_pb.js';
import type { FieldViolation } from '../../core/api-error.js';
import { nowIso } from '../../core/clock.js';
import { applyFields, fieldsToUpdate } from '../../core/field-mask.js';
import type { ServiceDeps } from '../../runtime/service-deps.js';
import { badIamRequest, IAM_DOMAIN } from '../errors.js';
import { identityFieldViolations, identityFromRow, loadIdentityRow } from './identity-row.js';
import { storeRelationship } from './relationship.js';
import { checkRelationship } from './validate-relationship.js';

export async function updateIdentity(deps: ServiceDeps, req: UpdateIdentityRequest, ctx: HandlerContext): Promise<Identity> {
  const incoming = req.identity!; // the guard has checked identity.uid
  const fields = fieldsToUpdate(IdentitySchema, incoming, req.updateMask, IAM_DOMAIN);
  // An untouched relationship is not re-validated: old static keys may be near expiry.
  const relationshipChanges = fields.some((f) => f.oneof?.name === 'relationship');
  return transact(deps.store, async (tx) => {
    const row = await loadIdentityRow(tx, incoming.uid);
    const merged = applyFields(IdentitySchema, identityFromRow(row), incoming, fields);
    const bad: FieldViolation[] = identityFieldViolations(merged);
    const relationship = relationshipChanges ? checkRelationship(merged.relationship, deps.allowInsecureIssuers, bad) : merged.relationship;
    if (bad.length > 0) throw badIamRequest(bad);
    const changes = {
      name: merged.name,
      description: merged.description,
      company: merged.company,
      update_time: nowIso(),
      ...(relationshipChanges ? storeRelationship(relationship) : {}),
    };
    await tx.updateTable('identities').set(changes).where('uid', '=', row.uid).execute();
    const identity = identityFromRow({ ...row, ...changes });
    await emitRpcEvent(tx, ctx, { group: identityEventGroup(row.uid), subject: row.uid, schema: IdentitySchema, message: identity });
    return identity;
  });
}

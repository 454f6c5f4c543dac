// UpdateIdentityMetadata: the caller changes its own identity's metadata (the
// identity the token was issued to; no other can be named). PATCH semantics as
// every update: update_mask names the fields, else the fields set (non-default)
// change; read-only fields never do. company is the identity's own company,
// the same field UpdateIdentity writes. The identity's row is locked first so
// concurrent partial updates merge. Its event is internal (not delivered to
// subscriptions), as in the reference.
import type { HandlerContext } from '@connectrpc/connect';
import { IdentityMetadataSchema, type IdentityMetadata, type UpdateIdentityMetadataRequest } from '../../gen/berth/iam/v2/identities_pb.js';
import { callerOf } from '../../auth/caller.js';
import { nowIso } from '../../core/clock.js';
import { applyFields, fieldsToUpdate } from '../../core/field-mask.js';
import { emitRpcEvent } from '../../events/rpc-event.js';
import type { ServiceDeps } from '../../runtime/service-deps.js';
import { capabilitiesOf } from '../../store/db-capabilities.js';
import { transact } from '../../store/transact.js';
import { badIamRequest, IAM_DOMAIN } from '../errors.js';
import { identityEventGroup } from './identity-event-group.js';
import { loadMetadata, metadataViolations, storedFields } from './identity-metadata-row.js';
import { loadIdentityRow } from './identity-row.js';

export async function updateIdentityMetadata(deps: ServiceDeps, req: UpdateIdentityMetadataRequest, ctx: HandlerContext): Promise<IdentityMetadata> {
  const caller = callerOf(ctx, IAM_DOMAIN);
  const incoming = req.identityMetadata;
  if (!incoming) throw badIamRequest([{ field: 'identity_metadata', description: 'identity_metadata is required' }]);
  const fields = fieldsToUpdate(IdentityMetadataSchema, incoming, req.updateMask, IAM_DOMAIN);
  return transact(deps.store, async (tx) => {
    await capabilitiesOf(tx)
      .lockRows(tx.selectFrom('identities').select('uid').where('uid', '=', caller.identityUid), 'exclusive')
      .execute();
    const identity = await loadIdentityRow(tx, caller.identityUid);
    const current = await loadMetadata(tx, identity);
    // Nothing named: the answer is the metadata as it is, and nothing is written.
    if (fields.length === 0) return current;
    const merged = applyFields(IdentityMetadataSchema, current, incoming, fields);
    const bad = metadataViolations(merged);
    if (bad.length > 0) throw badIamRequest(bad);
    const now = nowIso();
    if (merged.company !== identity.company) {
      await tx.updateTable('identities').set({ company: merged.company, update_time: now }).where('uid', '=', identity.uid).execute();
    }
    const row = { identity_uid: identity.uid, fields: storedFields(merged), update_time: now };
    await tx
      .insertInto('identity_metadata')
      .values(row)
      .onConflict((oc) => oc.column('identity_uid').doUpdateSet({ fields: row.fields, update_time: now }))
      .execute();
    await emitRpcEvent(tx, ctx, { group: identityEventGroup(identity.uid), subject: identity.uid, schema: IdentityMetadataSchema, message: merged });
    return merged;
  });
}

import { AccountAssociationSchema, type AccountAssociation, type UpdateAccountAssociationRequest } from '../../gen/berth/iam/v2/account_associations_pb.js';
import type { HandlerContext } from '@connectrpc/connect';
import { emitRpcEvent } from '../../events/rpc-event.js';
import { nowIso } from '../../core/clock.js';
import { applyFields, fieldsToUpdate } from '../../core/field-mask.js';
import type { ServiceDeps } from '../../runtime/service-deps.js';
import { transact } from '../../store/transact.js';
import { badIamRequest, IAM_DOMAIN } from '../errors.js';
import { associationFromRow, loadAssociationRow, storeProviders } from './association-row.js';
import { associationViolations } from './association-rules.js';

/** PATCH: a provider named in the mask (or sent) is replaced whole; one named but absent is removed. */
export async function updateAccountAssociation(deps: ServiceDeps, req: UpdateAccountAssociationRequest, ctx: HandlerContext): Promise<AccountAssociation> {
  const incoming = req.accountAssociation!; // the guard has checked account_association.uid
  const fields = fieldsToUpdate(AccountAssociationSchema, incoming, req.updateMask, IAM_DOMAIN);
  return transact(deps.store, async (tx) => {
    const row = await loadAssociationRow(tx, incoming.uid);
    const merged = applyFields(AccountAssociationSchema, associationFromRow(row), incoming, fields);
    const bad = associationViolations(merged);
    if (bad.length > 0) throw badIamRequest(bad);
    const changes = { name: merged.name, description: merged.description, providers: storeProviders(merged), update_time: nowIso() };
    await tx.updateTable('account_associations').set(changes).where('uid', '=', row.uid).execute();
    const association = associationFromRow({ ...row, ...changes });
    await emitRpcEvent(tx, ctx, { group: row.uid, subject: row.uid, schema: AccountAssociationSchema, message: association });
    return association;
  });
}

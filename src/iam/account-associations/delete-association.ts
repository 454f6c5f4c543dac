import type { HandlerContext } from '@connectrpc/connect';
import { emitRpcEvent } from '../../events/rpc-event.js';
import { DeleteAccountAssociationRequestSchema, type DeleteAccountAssociationRequest } from '../../gen/berth/iam/v2/account_associations_pb.js';
import type { ServiceDeps } from '../../runtime/service-deps.js';
import { transact } from '../../store/transact.js';
import { accountAssociationNotFound } from '../errors.js';

/** Its uid is its group's. An association that does not exist (or is gone already) is NOT_FOUND, as v2 answers for any missing resource. */
export async function deleteAccountAssociation(deps: ServiceDeps, req: DeleteAccountAssociationRequest, ctx: HandlerContext): Promise<Record<string, never>> {
  await transact(deps.store, async (tx) => {
    const gone = await tx.deleteFrom('account_associations').where('uid', '=', req.uid).executeTakeFirst();
    if (gone.numDeletedRows === 0n) throw accountAssociationNotFound(req.uid);
    await emitRpcEvent(tx, ctx, { group: req.uid, subject: req.uid, schema: DeleteAccountAssociationRequestSchema, message: req });
  });
  return {};
}

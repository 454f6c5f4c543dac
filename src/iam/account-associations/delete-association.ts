import type { HandlerContext } from '@connectrpc/connect';
import { emitRpcEvent } from '../../events/rpc-event.js';
import { DeleteAccountAssociationRequestSchema, type DeleteAccountAssociationRequest } from '../../gen/berth/iam/v2/account_associations_pb.js';
import type { ServiceDeps } from '../../runtime/service-deps.js';
import { transact } from '../../store/transact.js';

/** Idempotent by contract: an association that is already gone is a success (and emits no event). Its uid is its group's. */
export async function deleteAccountAssociation(deps: ServiceDeps, req: DeleteAccountAssociationRequest, ctx: HandlerContext): Promise<Record<string, never>> {
  await transact(deps.store, async (tx) => {
    const gone = await tx.deleteFrom('account_associations').where('uid', '=', req.uid).executeTakeFirst();
    if (gone.numDeletedRows > 0n)
      await emitRpcEvent(tx, ctx, { group: req.uid, subject: req.uid, schema: DeleteAccountAssociationRequestSchema, message: req });
  });
  return {};
}

import type { HandlerContext } from '@connectrpc/connect';
import { parentOf } from '../../core/uidp.js';
import { emitRpcEvent } from '../../events/rpc-event.js';
import { DeleteRoleBindingRequestSchema, type DeleteRoleBindingRequest } from '../../gen/berth/iam/v2/role_bindings_pb.js';
import type { ServiceDeps } from '../../runtime/service-deps.js';
import { transact } from '../../store/transact.js';

/**
 * Idempotent by contract: a binding that is already gone is a success, so
 * cleanups can be retried; only a delete that removed it emits the event.
 */
export async function deleteRoleBinding(deps: ServiceDeps, req: DeleteRoleBindingRequest, ctx: HandlerContext): Promise<Record<string, never>> {
  await transact(deps.store, async (tx) => {
    const gone = await tx.deleteFrom('role_bindings').where('uid', '=', req.uid).executeTakeFirst();
    if (gone.numDeletedRows > 0n)
      await emitRpcEvent(tx, ctx, { group: parentOf(req.uid), subject: req.uid, schema: DeleteRoleBindingRequestSchema, message: req });
  });
  return {};
}

import type { HandlerContext } from '@connectrpc/connect';
import { parentOf } from '../../core/uidp.js';
import { emitRpcEvent } from '../../events/rpc-event.js';
import { DeleteRoleBindingRequestSchema, type DeleteRoleBindingRequest } from '../../gen/berth/iam/v2/role_bindings_pb.js';
import type { ServiceDeps } from '../../runtime/service-deps.js';
import { transact } from '../../store/transact.js';
import { roleBindingNotFound } from '../errors.js';

/** A binding that does not exist (or is gone already) is NOT_FOUND, as v2 answers for any missing resource. */
export async function deleteRoleBinding(deps: ServiceDeps, req: DeleteRoleBindingRequest, ctx: HandlerContext): Promise<Record<string, never>> {
  await transact(deps.store, async (tx) => {
    const gone = await tx.deleteFrom('role_bindings').where('uid', '=', req.uid).executeTakeFirst();
    if (gone.numDeletedRows === 0n) throw roleBindingNotFound(req.uid);
    await emitRpcEvent(tx, ctx, { group: parentOf(req.uid), subject: req.uid, schema: DeleteRoleBindingRequestSchema, message: req });
  });
  return {};
}

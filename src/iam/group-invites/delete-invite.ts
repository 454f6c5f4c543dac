import type { HandlerContext } from '@connectrpc/connect';
import { parentOf } from '../../core/uidp.js';
import { emitRpcEvent } from '../../events/rpc-event.js';
import { DeleteGroupInviteRequestSchema, type DeleteGroupInviteRequest } from '../../gen/berth/iam/v2/group_invites_pb.js';
import type { ServiceDeps } from '../../runtime/service-deps.js';
import { transact } from '../../store/transact.js';

/** Idempotent by contract; only a delete that removed the invite emits the event. The row goes, so its code is refused from then on. */
export async function deleteGroupInvite(deps: ServiceDeps, req: DeleteGroupInviteRequest, ctx: HandlerContext): Promise<Record<string, never>> {
  await transact(deps.store, async (tx) => {
    const gone = await tx.deleteFrom('group_invites').where('uid', '=', req.uid).executeTakeFirst();
    if (gone.numDeletedRows > 0n)
      await emitRpcEvent(tx, ctx, { group: parentOf(req.uid), subject: req.uid, schema: DeleteGroupInviteRequestSchema, message: req });
  });
  return {};
}

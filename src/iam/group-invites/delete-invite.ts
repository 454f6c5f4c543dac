import type { HandlerContext } from '@connectrpc/connect';
import { parentOf } from '../../core/uidp.js';
import { emitRpcEvent } from '../../events/rpc-event.js';
import { DeleteGroupInviteRequestSchema, type DeleteGroupInviteRequest } from '../../gen/berth/iam/v2/group_invites_pb.js';
import type { ServiceDeps } from '../../runtime/service-deps.js';
import { transact } from '../../store/transact.js';
import { inviteNotFound } from '../errors.js';

/** The row goes, so its code is refused from then on. An invite that does not exist (or is gone already) is NOT_FOUND, as v2 answers for any missing resource. */
export async function deleteGroupInvite(deps: ServiceDeps, req: DeleteGroupInviteRequest, ctx: HandlerContext): Promise<Record<string, never>> {
  await transact(deps.store, async (tx) => {
    const gone = await tx.deleteFrom('group_invites').where('uid', '=', req.uid).executeTakeFirst();
    if (gone.numDeletedRows === 0n) throw inviteNotFound(req.uid);
    await emitRpcEvent(tx, ctx, { group: parentOf(req.uid), subject: req.uid, schema: DeleteGroupInviteRequestSchema, message: req });
  });
  return {};
}

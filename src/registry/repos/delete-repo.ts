import type { HandlerContext } from '@connectrpc/connect';
import { parentOf } from '../../core/uidp.js';
import { emitRpcEvent } from '../../events/rpc-event.js';
import { transact } from '../../store/transact.js';
import { DeleteRepoRequestSchema, type DeleteRepoRequest } from '../../gen/berth/registry/v2/repos_pb.js';
import type { ServiceDeps } from '../../runtime/service-deps.js';
import { repoNotFound } from '../errors.js';

/** Deletes the repo; its tags and tag history go with it (ON DELETE CASCADE). */
export async function deleteRepo(deps: ServiceDeps, req: DeleteRepoRequest, ctx: HandlerContext): Promise<Record<string, never>> {
  await transact(deps.store, async (tx) => {
    const gone = await tx.deleteFrom('repos').where('uid', '=', req.uid).executeTakeFirst();
    if (gone.numDeletedRows === 0n) throw repoNotFound(req.uid);
    await emitRpcEvent(tx, ctx, { group: parentOf(req.uid), subject: req.uid, schema: DeleteRepoRequestSchema, message: req });
  });
  return {};
}

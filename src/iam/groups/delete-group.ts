// A group is deleted only when empty. The database decides: every table
// whose rows live in a group (child groups, identities, custom roles, repos,
// and whatever a later domain adds) references it with ON DELETE RESTRICT, so
// no list of child tables here can miss one. Role bindings made on the group
// itself are part of it and go with it (ON DELETE CASCADE).
import type { HandlerContext } from '@connectrpc/connect';
import { emitRpcEvent } from '../../events/rpc-event.js';
import { DeleteGroupRequestSchema, type DeleteGroupRequest } from '../../gen/berth/iam/v2/groups_pb.js';
import type { ServiceDeps } from '../../runtime/service-deps.js';
import { isForeignKeyViolation } from '../../store/constraint-error.js';
import { blockingTable } from '../../store/referencing-rows.js';
import { transact } from '../../store/transact.js';
import { groupNotEmpty, groupNotFound } from '../errors.js';

export async function deleteGroup(deps: ServiceDeps, req: DeleteGroupRequest, ctx: HandlerContext): Promise<Record<string, never>> {
  try {
    await transact(deps.store, async (tx) => {
      const gone = await tx.deleteFrom('groups').where('uid', '=', req.uid).executeTakeFirst();
      if (gone.numDeletedRows === 0n) throw groupNotFound(req.uid);
      // The group's own uid, not its parent's: subscriptions on its ancestors receive it (its own went with it).
      await emitRpcEvent(tx, ctx, { group: req.uid, subject: req.uid, schema: DeleteGroupRequestSchema, message: req });
    });
  } catch (err) {
    if (!isForeignKeyViolation(err)) throw err;
    const child = await blockingTable(deps.store.db, deps.store.caps, 'groups', req.uid);
    throw groupNotEmpty(child ? `cannot delete group with child ${child}` : 'the group is not empty');
  }
  return {};
}

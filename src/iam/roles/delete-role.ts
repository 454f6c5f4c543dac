import { transact } from '../../store/transact.js';
import type { HandlerContext } from '@connectrpc/connect';
import { emitRpcEvent } from '../../events/rpc-event.js';
import { parentOf } from '../../core/uidp.js';
import { DeleteRoleRequestSchema, type DeleteRoleRequest } from '../../gen/berth/iam/v2/roles_pb.js';
import type { ServiceDeps } from '../../runtime/service-deps.js';
import { isForeignKeyViolation } from '../../store/constraint-error.js';
import { blockingTable } from '../../store/referencing-rows.js';
import { builtinRoleImmutable, roleInUse, roleNotFound } from '../errors.js';

/**
 * Refuses built-in roles and roles still in use, so nothing ever points at a
 * missing role. What uses a role — bindings, identity providers' default
 * roles, group mappings, whatever a later table adds — references it with ON
 * DELETE RESTRICT, so the database decides and names the table.
 */
export async function deleteRole(deps: ServiceDeps, req: DeleteRoleRequest, ctx: HandlerContext): Promise<Record<string, never>> {
  try {
    await transact(deps.store, async (tx) => {
      const row = await tx.selectFrom('roles').select(['uid', 'builtin']).where('uid', '=', req.uid).executeTakeFirst();
      if (!row) throw roleNotFound(req.uid);
      if (row.builtin === 1) throw builtinRoleImmutable(req.uid);
      await tx.deleteFrom('roles').where('uid', '=', req.uid).execute();
      await emitRpcEvent(tx, ctx, { group: parentOf(req.uid), subject: req.uid, schema: DeleteRoleRequestSchema, message: req });
    });
  } catch (err) {
    if (!isForeignKeyViolation(err)) throw err;
    const table = await blockingTable(deps.store.db, deps.store.caps, 'roles', req.uid);
    // "role_bindings" → "role binding"
    throw roleInUse(req.uid, table ? table.replaceAll('_', ' ').replace(/s$/, '') : 'resource');
  }
  return {};
}

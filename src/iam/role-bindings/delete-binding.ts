import type { HandlerContext } from '@connectrpc/connect';
import { callerOf } from '../../auth/caller.js';
import { emitRpcEvent } from '../../events/rpc-event.js';
import { Capability } from '../../gen/berth/capabilities/v1/capabilities_pb.js';
import { DeleteRoleBindingRequestSchema, type DeleteRoleBindingRequest } from '../../gen/berth/iam/v2/role_bindings_pb.js';
import type { ServiceDeps } from '../../runtime/service-deps.js';
import { transact } from '../../store/transact.js';
import { IAM_DOMAIN, roleBindingNotFound } from '../errors.js';
import { roleCapabilities } from '../roles/role-row.js';
import { keepOwners } from './owner-bindings.js';

/**
 * Anti-escalation, as for create and update: taking a role away is as strong
 * as handing it out, so besides role_bindings.delete (the guard) the caller
 * must hold every capability of the binding's role at its group — otherwise a
 * role holding only role_bindings.delete could remove the owners. An
 * organization keeps one owner binding (keepOwners). A binding that does not
 * exist (or is gone already) is NOT_FOUND, as v2 answers for any missing resource.
 */
export async function deleteRoleBinding(deps: ServiceDeps, req: DeleteRoleBindingRequest, ctx: HandlerContext): Promise<Record<string, never>> {
  const caller = callerOf(ctx, IAM_DOMAIN);
  await transact(deps.store, async (tx) => {
    const row = await tx
      .selectFrom('role_bindings as rb')
      .innerJoin('roles as r', 'r.uid', 'rb.role_uid')
      .select(['rb.uid as uid', 'rb.parent_uid as parent_uid', 'r.capabilities as capabilities'])
      .where('rb.uid', '=', req.uid)
      .executeTakeFirst();
    if (!row) throw roleBindingNotFound(req.uid);
    await caller.require(IAM_DOMAIN, [Capability.CAP_IAM_ROLE_BINDINGS_DELETE, ...roleCapabilities(row)], row.parent_uid);
    await keepOwners(tx, { bindings: [row.uid] }, () => tx.deleteFrom('role_bindings').where('uid', '=', row.uid).execute());
    await emitRpcEvent(tx, ctx, { group: row.parent_uid, subject: row.uid, schema: DeleteRoleBindingRequestSchema, message: req });
  });
  return {};
}

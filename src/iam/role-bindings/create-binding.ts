import { transact } from '../../store/transact.js';
import type { HandlerContext } from '@connectrpc/connect';
import { RoleBindingSchema, type CreateRoleBindingRequest, type RoleBinding } from '../../gen/berth/iam/v2/role_bindings_pb.js';
import { emitRpcEvent } from '../../events/rpc-event.js';
import { callerOf } from '../../auth/caller.js';
import type { ServiceDeps } from '../../runtime/service-deps.js';
import { IAM_DOMAIN } from '../errors.js';
import { loadHydrated } from './binding-row.js';
import { insertBinding } from './binding-rules.js';

export async function createRoleBinding(deps: ServiceDeps, req: CreateRoleBindingRequest, ctx: HandlerContext): Promise<RoleBinding> {
  const caller = callerOf(ctx, IAM_DOMAIN);
  return transact(deps.store, async (tx) => {
    const row = await insertBinding(tx, caller, {
      parent: req.parent,
      identityUid: req.roleBinding?.identityUid ?? '',
      roleUid: req.roleBinding?.roleUid ?? '',
      field: 'role_binding',
    });
    const binding = await loadHydrated(tx, row.uid);
    await emitRpcEvent(tx, ctx, { group: row.parent_uid, subject: row.uid, schema: RoleBindingSchema, message: binding });
    return binding;
  });
}

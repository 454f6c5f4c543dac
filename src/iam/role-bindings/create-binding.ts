import { transact } from '../../store/transact.js';
import type { HandlerContext } from '@connectrpc/connect';
import type { CreateRoleBindingRequest, RoleBinding } from '../../gen/berth/iam/v2/role_bindings_pb.js';
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
    return loadHydrated(tx, row.uid);
  });
}

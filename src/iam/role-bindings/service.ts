import type { ServiceImpl } from '@connectrpc/connect';
import type { RoleBindingsService } from '../../gen/berth/iam/v2/role_bindings_pb.js';
import type { ServiceDeps } from '../../runtime/service-deps.js';
import { batchCreateRoleBindings } from './batch-create-bindings.js';
import { createRoleBinding } from './create-binding.js';
import { deleteRoleBinding } from './delete-binding.js';
import { getRoleBinding } from './get-binding.js';
import { listRoleBindings } from './list-bindings.js';
import { updateRoleBinding } from './update-binding.js';

export function roleBindingsService(deps: ServiceDeps): ServiceImpl<typeof RoleBindingsService> {
  return {
    getRoleBinding: (req) => getRoleBinding(deps, req),
    listRoleBindings: (req, ctx) => listRoleBindings(deps, req, ctx),
    createRoleBinding: (req, ctx) => createRoleBinding(deps, req, ctx),
    batchCreateRoleBindings: (req, ctx) => batchCreateRoleBindings(deps, req, ctx),
    updateRoleBinding: (req, ctx) => updateRoleBinding(deps, req, ctx),
    deleteRoleBinding: (req, ctx) => deleteRoleBinding(deps, req, ctx),
  };
}

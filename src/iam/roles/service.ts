import type { ServiceImpl } from '@connectrpc/connect';
import type { RolesService } from '../../gen/berth/iam/v2/roles_pb.js';
import type { ServiceDeps } from '../../runtime/service-deps.js';
import { createRole } from './create-role.js';
import { deleteRole } from './delete-role.js';
import { getRole } from './get-role.js';
import { listRoles } from './list-roles.js';
import { updateRole } from './update-role.js';

export function rolesService(deps: ServiceDeps): ServiceImpl<typeof RolesService> {
  return {
    getRole: (req, ctx) => getRole(deps, req, ctx),
    listRoles: (req, ctx) => listRoles(deps, req, ctx),
    createRole: (req, ctx) => createRole(deps, req, ctx),
    updateRole: (req, ctx) => updateRole(deps, req, ctx),
    deleteRole: (req, ctx) => deleteRole(deps, req, ctx),
  };
}

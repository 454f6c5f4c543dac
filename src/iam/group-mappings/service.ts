import type { ServiceImpl } from '@connectrpc/connect';
import type { ExternalGroupRoleMappingsService } from '../../gen/berth/iam/v2/external_group_role_mappings_pb.js';
import type { ServiceDeps } from '../../runtime/service-deps.js';
import { batchDeleteExternalGroupRoleMappings } from './batch-delete-mappings.js';
import { createExternalGroupRoleMapping } from './create-mapping.js';
import { deleteExternalGroupRoleMapping } from './delete-mapping.js';
import { getExternalGroupRoleMapping } from './get-mapping.js';
import { listExternalGroupRoleMappings } from './list-mappings.js';

export function externalGroupRoleMappingsService(deps: ServiceDeps): ServiceImpl<typeof ExternalGroupRoleMappingsService> {
  return {
    getExternalGroupRoleMapping: (req) => getExternalGroupRoleMapping(deps, req),
    createExternalGroupRoleMapping: (req, ctx) => createExternalGroupRoleMapping(deps, req, ctx),
    deleteExternalGroupRoleMapping: (req, ctx) => deleteExternalGroupRoleMapping(deps, req, ctx),
    batchDeleteExternalGroupRoleMappings: (req, ctx) => batchDeleteExternalGroupRoleMappings(deps, req, ctx),
    listExternalGroupRoleMappings: (req, ctx) => listExternalGroupRoleMappings(deps, req, ctx),
  };
}

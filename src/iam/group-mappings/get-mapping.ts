import type { ExternalGroupRoleMapping, GetExternalGroupRoleMappingRequest } from '../../gen/berth/iam/v2/external_group_role_mappings_pb.js';
import type { ServiceDeps } from '../../runtime/service-deps.js';
import { loadMappingRow, mappingFromRow } from './mapping-row.js';

export async function getExternalGroupRoleMapping(deps: ServiceDeps, req: GetExternalGroupRoleMappingRequest): Promise<ExternalGroupRoleMapping> {
  return mappingFromRow(await loadMappingRow(deps.store.db, req.uid));
}

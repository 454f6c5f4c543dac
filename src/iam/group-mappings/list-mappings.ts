import type { HandlerContext } from '@connectrpc/connect';
import { callerOf } from '../../auth/caller.js';
import { Capability } from '../../gen/berth/capabilities/v1/capabilities_pb.js';
import type { ListExternalGroupRoleMappingsRequest, ListExternalGroupRoleMappingsResponse } from '../../gen/berth/iam/v2/external_group_role_mappings_pb.js';
import { equal, type Condition } from '../../list/conditions.js';
import { runList, type ListSpec } from '../../list/run-list.js';
import type { ServiceDeps } from '../../runtime/service-deps.js';
import { IAM_DOMAIN } from '../errors.js';
import type { ExternalGroupRoleMappingsTable } from '../iam-tables.js';
import { mappingFromRow } from './mapping-row.js';

const SPEC: ListSpec = {
  table: 'external_group_role_mappings',
  domain: IAM_DOMAIN,
  columns: { uid: 'uid', created_at: 'create_time' },
  defaultOrder: { field: 'uid', desc: false },
};

/** Mappings live under their provider, so identity_providers.list on a group shows the mappings of the providers there. */
export async function listExternalGroupRoleMappings(
  deps: ServiceDeps,
  req: ListExternalGroupRoleMappingsRequest,
  ctx: HandlerContext,
): Promise<ListExternalGroupRoleMappingsResponse> {
  const caller = callerOf(ctx, IAM_DOMAIN);
  const visible = await caller.scopes(Capability.CAP_IAM_IDENTITY_PROVIDERS_LIST);
  const conditions: Condition[] = [];
  if (req.identityProviderUid !== '') conditions.push(equal('parent_uid', req.identityProviderUid));
  const key = { identityProviderUid: req.identityProviderUid };
  const page = await runList<ExternalGroupRoleMappingsTable>(deps, SPEC, req, { conditions, key }, visible, caller.tableVersions);
  return {
    $typeName: 'berth.iam.v2.ListExternalGroupRoleMappingsResponse',
    externalGroupRoleMappings: page.rows.map(mappingFromRow),
    nextPageToken: page.nextPageToken,
    totalCount: page.totalCount,
    skipped: page.skipped,
  };
}

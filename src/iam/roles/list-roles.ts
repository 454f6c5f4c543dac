import type { HandlerContext } from '@connectrpc/connect';
import { Capability } from '../../gen/berth/capabilities/v1/capabilities_pb.js';
import type { ListRolesRequest, ListRolesResponse } from '../../gen/berth/iam/v2/roles_pb.js';
import { callerOf } from '../../auth/caller.js';
import { runList, type ListSpec } from '../../list/run-list.js';
import { equal, anyOf, inSubtrees, type Condition } from '../../list/conditions.js';
import type { RolesTable } from '../iam-tables.js';
import type { ServiceDeps } from '../../runtime/service-deps.js';
import { IAM_DOMAIN } from '../errors.js';
import { roleFromRow } from './role-row.js';

const SPEC: ListSpec = {
  table: 'roles',
  domain: IAM_DOMAIN,
  columns: { uid: 'uid', name: 'name', created_at: 'create_time', updated_at: 'update_time' },
  defaultOrder: { field: 'uid', desc: false },
};

/** Built-in roles (visible to everyone) plus the custom roles under the groups where the caller holds roles.list. */
export async function listRoles(deps: ServiceDeps, req: ListRolesRequest, ctx: HandlerContext): Promise<ListRolesResponse> {
  const caller = callerOf(ctx, IAM_DOMAIN);
  const scopes = await caller.scopes(Capability.CAP_IAM_ROLES_LIST);
  const conditions: Condition[] = [anyOf([equal('builtin', 1), inSubtrees(scopes, true)])];
  if (req.name !== '') conditions.push(equal('name', req.name));
  const page = await runList<RolesTable>(deps, SPEC, req, { conditions, key: { name: req.name, scopes } }, 'all', caller.tableVersions);
  return {
    $typeName: 'berth.iam.v2.ListRolesResponse',
    roles: page.rows.map(roleFromRow),
    nextPageToken: page.nextPageToken,
    totalCount: page.totalCount,
    skipped: page.skipped,
  };
}

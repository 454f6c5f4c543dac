import type { HandlerContext } from '@connectrpc/connect';
import { Capability } from '../../gen/berth/capabilities/v1/capabilities_pb.js';
import type { ListGroupsRequest, ListGroupsResponse } from '../../gen/berth/iam/v2/groups_pb.js';
import { callerOf } from '../../auth/caller.js';
import { runList, type ListSpec } from '../../list/run-list.js';
import { equal, type Condition } from '../../list/conditions.js';
import type { GroupsTable } from '../iam-tables.js';
import type { ServiceDeps } from '../../runtime/service-deps.js';
import { IAM_DOMAIN } from '../errors.js';
import { groupFromRow } from './group-row.js';

const SPEC: ListSpec = {
  table: 'groups',
  domain: IAM_DOMAIN,
  columns: { uid: 'uid', name: 'name', created_at: 'create_time', updated_at: 'update_time' },
  defaultOrder: { field: 'uid', desc: false },
};

export async function listGroups(deps: ServiceDeps, req: ListGroupsRequest, ctx: HandlerContext): Promise<ListGroupsResponse> {
  const caller = callerOf(ctx, IAM_DOMAIN);
  const visible = await caller.scopes(Capability.CAP_IAM_GROUPS_LIST);
  const conditions: Condition[] = [];
  if (req.name !== '') conditions.push(equal('name', req.name));
  const page = await runList<GroupsTable>(deps, SPEC, req, { conditions, key: { name: req.name } }, visible, caller.tableVersions);
  return {
    $typeName: 'berth.iam.v2.ListGroupsResponse',
    groups: page.rows.map(groupFromRow),
    nextPageToken: page.nextPageToken,
    totalCount: page.totalCount,
    skipped: page.skipped,
  };
}

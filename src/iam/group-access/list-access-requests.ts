// ListGroupAccessRequests (Berth's own): an organization's access requests,
// newest first, for those who may bind roles there (the guard checked
// role_bindings.create at group_uid before anything is read).
import type { HandlerContext } from '@connectrpc/connect';
import { create } from '@bufbuild/protobuf';
import {
  ListGroupAccessRequestsResponseSchema,
  type ListGroupAccessRequestsRequest,
  type ListGroupAccessRequestsResponse,
} from '../../gen/berth/iam/v2/groups_pb.js';
import { callerOf } from '../../auth/caller.js';
import { equal, type Condition } from '../../list/conditions.js';
import { runList, type ListSpec } from '../../list/run-list.js';
import type { ServiceDeps } from '../../runtime/service-deps.js';
import { IAM_DOMAIN } from '../errors.js';
import { accessRequestFromRow, storedState } from './access-request-row.js';
import type { GroupAccessRequestsTable } from './group-access-tables.js';

const SPEC: ListSpec = {
  table: 'group_access_requests',
  domain: IAM_DOMAIN,
  columns: { uid: 'uid', created_at: 'create_time', updated_at: 'update_time' },
  defaultOrder: { field: 'created_at', desc: true },
};

export async function listGroupAccessRequests(
  deps: ServiceDeps,
  req: ListGroupAccessRequestsRequest,
  ctx: HandlerContext,
): Promise<ListGroupAccessRequestsResponse> {
  const caller = callerOf(ctx, IAM_DOMAIN);
  const conditions: Condition[] = [equal('parent_uid', req.groupUid)];
  const state = storedState(req.state);
  if (state) conditions.push(equal('state', state));
  const page = await runList<GroupAccessRequestsTable>(
    deps,
    SPEC,
    req,
    { conditions, key: { group: req.groupUid, state: state ?? '' } },
    [req.groupUid],
    caller.tableVersions,
  );
  return create(ListGroupAccessRequestsResponseSchema, {
    groupAccessRequests: page.rows.map(accessRequestFromRow),
    nextPageToken: page.nextPageToken,
    totalCount: page.totalCount,
    skipped: page.skipped,
  });
}

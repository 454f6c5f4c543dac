import type { HandlerContext } from '@connectrpc/connect';
import { Capability } from '../../gen/berth/capabilities/v1/capabilities_pb.js';
import type { ListGroupInvitesRequest, ListGroupInvitesResponse } from '../../gen/berth/iam/v2/group_invites_pb.js';
import { callerOf } from '../../auth/caller.js';
import { equal, type Condition } from '../../list/conditions.js';
import { runList, type ListSpec } from '../../list/run-list.js';
import type { ServiceDeps } from '../../runtime/service-deps.js';
import type { GroupInvitesTable } from '../iam-tables.js';
import { IAM_DOMAIN } from '../errors.js';
import { invitesFromRows } from './invite-row.js';

const SPEC: ListSpec = {
  table: 'group_invites',
  domain: IAM_DOMAIN,
  columns: { uid: 'uid', created_at: 'create_time', expiration_time: 'expiration_time' },
  // The reference's default for invites: newest first.
  defaultOrder: { field: 'created_at', desc: true },
};

export async function listGroupInvites(deps: ServiceDeps, req: ListGroupInvitesRequest, ctx: HandlerContext): Promise<ListGroupInvitesResponse> {
  const caller = callerOf(ctx, IAM_DOMAIN);
  const visible = await caller.scopes(Capability.CAP_IAM_GROUP_INVITES_LIST);
  const conditions: Condition[] = [];
  if (req.keyId !== '') conditions.push(equal('key_id', req.keyId));
  const page = await runList<GroupInvitesTable>(deps, SPEC, req, { conditions, key: { keyId: req.keyId } }, visible, caller.tableVersions);
  return {
    $typeName: 'berth.iam.v2.ListGroupInvitesResponse',
    groupInvites: await invitesFromRows(deps.store.db, page.rows),
    nextPageToken: page.nextPageToken,
    totalCount: page.totalCount,
    skipped: page.skipped,
  };
}

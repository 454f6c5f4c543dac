import type { HandlerContext } from '@connectrpc/connect';
import { Capability } from '../../gen/berth/capabilities/v1/capabilities_pb.js';
import type { ListRoleBindingsRequest, ListRoleBindingsResponse } from '../../gen/berth/iam/v2/role_bindings_pb.js';
import { callerOf } from '../../auth/caller.js';
import { runList, type ListSpec } from '../../list/run-list.js';
import { equal, type Condition } from '../../list/conditions.js';
import type { RoleBindingsTable } from '../iam-tables.js';
import type { ServiceDeps } from '../../runtime/service-deps.js';
import { IAM_DOMAIN } from '../errors.js';
import { hydrateRows } from './binding-row.js';

const SPEC: ListSpec = {
  table: 'role_bindings',
  domain: IAM_DOMAIN,
  columns: { uid: 'uid', created_at: 'create_time' },
  defaultOrder: { field: 'uid', desc: false },
};

export async function listRoleBindings(deps: ServiceDeps, req: ListRoleBindingsRequest, ctx: HandlerContext): Promise<ListRoleBindingsResponse> {
  const caller = callerOf(ctx, IAM_DOMAIN);
  const visible = await caller.scopes(Capability.CAP_IAM_ROLE_BINDINGS_LIST);
  const conditions: Condition[] = [];
  if (req.identity !== '') conditions.push(equal('identity_uid', req.identity));
  if (req.group !== '') conditions.push(equal('parent_uid', req.group));
  if (req.role !== '') conditions.push(equal('role_uid', req.role));
  const key = { identity: req.identity, group: req.group, role: req.role };
  const page = await runList<RoleBindingsTable>(deps, SPEC, req, { conditions, key }, visible, caller.tableVersions);
  return {
    $typeName: 'berth.iam.v2.ListRoleBindingsResponse',
    roleBindings: await hydrateRows(deps.store.db, page.rows),
    nextPageToken: page.nextPageToken,
    totalCount: page.totalCount,
    skipped: page.skipped,
  };
}

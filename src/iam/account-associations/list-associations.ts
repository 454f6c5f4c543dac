import type { HandlerContext } from '@connectrpc/connect';
import { Capability } from '../../gen/berth/capabilities/v1/capabilities_pb.js';
import type { ListAccountAssociationsRequest, ListAccountAssociationsResponse } from '../../gen/berth/iam/v2/account_associations_pb.js';
import { callerOf } from '../../auth/caller.js';
import { equal, type Condition } from '../../list/conditions.js';
import { runList, type ListSpec } from '../../list/run-list.js';
import type { ServiceDeps } from '../../runtime/service-deps.js';
import type { AccountAssociationsTable } from '../iam-tables.js';
import { IAM_DOMAIN } from '../errors.js';
import { associationFromRow } from './association-row.js';

const SPEC: ListSpec = {
  table: 'account_associations',
  domain: IAM_DOMAIN,
  // An association's uid is its group's, so "group" sorts by it.
  columns: { group: 'uid', uid: 'uid', name: 'name', created_at: 'create_time', updated_at: 'update_time' },
  defaultOrder: { field: 'group', desc: false },
};

export async function listAccountAssociations(
  deps: ServiceDeps,
  req: ListAccountAssociationsRequest,
  ctx: HandlerContext,
): Promise<ListAccountAssociationsResponse> {
  const caller = callerOf(ctx, IAM_DOMAIN);
  const visible = await caller.scopes(Capability.CAP_IAM_ACCOUNT_ASSOCIATIONS_LIST);
  const conditions: Condition[] = [];
  if (req.name !== '') conditions.push(equal('name', req.name));
  const page = await runList<AccountAssociationsTable>(deps, SPEC, req, { conditions, key: { name: req.name } }, visible, caller.tableVersions);
  return {
    $typeName: 'berth.iam.v2.ListAccountAssociationsResponse',
    accountAssociations: page.rows.map(associationFromRow),
    nextPageToken: page.nextPageToken,
    totalCount: page.totalCount,
    skipped: page.skipped,
  };
}

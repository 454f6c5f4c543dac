import type { HandlerContext } from '@connectrpc/connect';
import { Capability } from '../../gen/berth/capabilities/v1/capabilities_pb.js';
import { RelationshipType, type ListIdentitiesRequest, type ListIdentitiesResponse } from '../../gen/berth/iam/v2/identities_pb.js';
import { callerOf } from '../../auth/caller.js';
import { runList, type ListSpec } from '../../list/run-list.js';
import { equal, type Condition } from '../../list/conditions.js';
import type { IdentitiesTable } from '../iam-tables.js';
import type { ServiceDeps } from '../../runtime/service-deps.js';
import { IAM_DOMAIN } from '../errors.js';
import { identityFromRow } from './identity-row.js';

const SPEC: ListSpec = {
  table: 'identities',
  domain: IAM_DOMAIN,
  columns: { uid: 'uid', name: 'name', created_at: 'create_time', updated_at: 'update_time' },
  defaultOrder: { field: 'uid', desc: false },
};

/** API enum → the relationship_type column (see relationship.ts). */
const STORED_TYPE: Partial<Record<RelationshipType, string>> = {
  [RelationshipType.CLAIM_MATCH]: 'claim_match',
  [RelationshipType.STATIC]: 'static',
};

export async function listIdentities(deps: ServiceDeps, req: ListIdentitiesRequest, ctx: HandlerContext): Promise<ListIdentitiesResponse> {
  const caller = callerOf(ctx, IAM_DOMAIN);
  const visible = await caller.scopes(Capability.CAP_IAM_IDENTITY_LIST);
  const conditions: Condition[] = [];
  if (req.name !== '') conditions.push(equal('name', req.name));
  const type = STORED_TYPE[req.relationshipType];
  if (type) conditions.push(equal('relationship_type', type));
  const page = await runList<IdentitiesTable>(deps, SPEC, req, { conditions, key: { name: req.name, type: type ?? '' } }, visible, caller.tableVersions);
  return {
    $typeName: 'berth.iam.v2.ListIdentitiesResponse',
    identities: page.rows.map(identityFromRow),
    nextPageToken: page.nextPageToken,
    totalCount: page.totalCount,
    skipped: page.skipped,
  };
}

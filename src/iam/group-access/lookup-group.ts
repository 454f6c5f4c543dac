// LookupGroup: the organization of the caller's verified email domain, or
// NOT_FOUND for every other outcome (caller-organization.ts).
import { create } from '@bufbuild/protobuf';
import type { HandlerContext } from '@connectrpc/connect';
import { LookupGroupResponseSchema, type LookupGroupResponse } from '../../gen/berth/iam/v2/groups_pb.js';
import { callerOf } from '../../auth/caller.js';
import type { ServiceDeps } from '../../runtime/service-deps.js';
import { IAM_DOMAIN, noOrganizationForCaller } from '../errors.js';
import { groupFromRow } from '../groups/group-row.js';
import { callerOrganization } from './caller-organization.js';

export async function lookupGroup(deps: ServiceDeps, ctx: HandlerContext): Promise<LookupGroupResponse> {
  const caller = callerOf(ctx, IAM_DOMAIN);
  const found = await callerOrganization(deps.store.db, caller.identityUid);
  if (!found) throw noOrganizationForCaller();
  return create(LookupGroupResponseSchema, { group: groupFromRow(found.org) });
}

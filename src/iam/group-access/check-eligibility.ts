// CheckEligibility: whether RequestGroupAccess would take the caller's request
// to the organization LookupGroup finds (access-standing.ts).
import { create } from '@bufbuild/protobuf';
import type { HandlerContext } from '@connectrpc/connect';
import { CheckEligibilityResponseSchema, type CheckEligibilityResponse } from '../../gen/berth/iam/v2/groups_pb.js';
import { callerOf } from '../../auth/caller.js';
import type { ServiceDeps } from '../../runtime/service-deps.js';
import { IAM_DOMAIN } from '../errors.js';
import { accessStanding } from './access-standing.js';

export async function checkEligibility(deps: ServiceDeps, ctx: HandlerContext): Promise<CheckEligibilityResponse> {
  const caller = callerOf(ctx, IAM_DOMAIN);
  const standing = await accessStanding(deps.store.db, caller.identityUid);
  return create(CheckEligibilityResponseSchema, { eligible: standing.kind === 'eligible' });
}

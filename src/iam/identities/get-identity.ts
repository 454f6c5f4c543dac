import type { HandlerContext } from '@connectrpc/connect';
import { callerOf } from '../../auth/caller.js';
import { isValidUid } from '../../core/uidp.js';
import { badRequest } from '../../core/request-errors.js';
import { Capability } from '../../gen/berth/capabilities/v1/capabilities_pb.js';
import type { GetIdentityRequest, Identity } from '../../gen/berth/iam/v2/identities_pb.js';
import type { ServiceDeps } from '../../runtime/service-deps.js';
import { IAM_DOMAIN } from '../errors.js';
import { identityFromRow, loadIdentityRow } from './identity-row.js';

/**
 * Unscoped in the guard because a caller may always read its own identity (a
 * root-level owner holds identity.list at its organization, not at its own
 * uid). Any other identity needs identity.list at it, checked here from the
 * uid alone, before the row is read.
 */
export async function getIdentity(deps: ServiceDeps, req: GetIdentityRequest, ctx: HandlerContext): Promise<Identity> {
  const caller = callerOf(ctx, IAM_DOMAIN);
  if (req.uid !== caller.identityUid) {
    if (!isValidUid(req.uid)) {
      const description = req.uid === '' ? 'uid is required' : `"${req.uid.slice(0, 80)}" is not a valid uid`;
      throw badRequest(IAM_DOMAIN, [{ field: 'uid', description }]);
    }
    await caller.require(IAM_DOMAIN, [Capability.CAP_IAM_IDENTITY_LIST], req.uid);
  }
  return identityFromRow(await loadIdentityRow(deps.store.db, req.uid));
}

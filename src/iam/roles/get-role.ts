import type { HandlerContext } from '@connectrpc/connect';
import { Capability } from '../../gen/berth/capabilities/v1/capabilities_pb.js';
import type { GetRoleRequest, Role } from '../../gen/berth/iam/v2/roles_pb.js';
import { callerOf } from '../../auth/caller.js';
import { isBuiltinRoleUid } from './builtin-roles.js';
import { isValidUid } from '../../core/uidp.js';
import type { ServiceDeps } from '../../runtime/service-deps.js';
import { badIamRequest, IAM_DOMAIN } from '../errors.js';
import { loadRoleRow, roleFromRow } from './role-row.js';

/**
 * Unscoped in the proto because built-in roles are readable by every caller;
 * a custom role needs roles.list at its uid, checked before the read so a
 * caller cannot probe for uids it may not see.
 */
export async function getRole(deps: ServiceDeps, req: GetRoleRequest, ctx: HandlerContext): Promise<Role> {
  const caller = callerOf(ctx, IAM_DOMAIN);
  if (!isValidUid(req.uid)) throw badIamRequest([{ field: 'uid', description: `"${req.uid.slice(0, 80)}" is not a valid uid` }]);
  if (!isBuiltinRoleUid(req.uid)) await caller.require(IAM_DOMAIN, [Capability.CAP_IAM_ROLES_LIST], req.uid);
  return roleFromRow(await loadRoleRow(deps.store.db, req.uid));
}

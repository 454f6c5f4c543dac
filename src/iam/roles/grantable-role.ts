// The rules for a role that is bound later, on someone else's behalf: an
// identity provider's default role and an external group role mapping's role
// are promises of future role bindings, so they pass what a binding made now
// would. The role must mean something at the group (a built-in role, or one
// defined there or above), exist, and the caller must hold every capability it
// grants there — otherwise a caller could hand out, through a provider it
// configures, more than it holds (no escalation).
import type { Caller } from '../../auth/caller.js';
import type { FieldViolation } from '../../core/api-error.js';
import { isSelfOrBelow, isValidUid, parentOf } from '../../core/uidp.js';
import { Capability } from '../../gen/berth/capabilities/v1/capabilities_pb.js';
import type { Executor } from '../../store/transact.js';
import { IAM_DOMAIN, roleNotFound } from '../errors.js';
import { isBuiltinRoleUid } from './builtin-roles.js';
import { roleCapabilities } from './role-row.js';

/** What is wrong with `roleUid` as a role bound on `group`, from the uids alone (checked before any read). */
export function roleUidViolation(roleUid: string, group: string, field: string): FieldViolation | undefined {
  if (roleUid === '') return { field, description: `${field} is required` };
  if (!isValidUid(roleUid)) return { field, description: `"${roleUid.slice(0, 80)}" is not a valid uid` };
  const home = parentOf(roleUid);
  if (home === '' ? !isBuiltinRoleUid(roleUid) : !isSelfOrBelow(group, home)) {
    return { field, description: 'the role is not defined at this group or above it' };
  }
  return undefined;
}

/** Throws NOT_FOUND when the role is gone, PERMISSION_DENIED unless the caller could bind it on `group` now. */
export async function requireGrantableRole(db: Executor, caller: Caller, roleUid: string, group: string): Promise<void> {
  const role = await db.selectFrom('roles').select('capabilities').where('uid', '=', roleUid).executeTakeFirst();
  if (!role) throw roleNotFound(roleUid);
  await caller.require(IAM_DOMAIN, [Capability.CAP_IAM_ROLE_BINDINGS_CREATE, ...roleCapabilities(role)], group);
}

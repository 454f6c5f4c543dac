// The checks every new binding passes, for create, batch create and update
// alike. They run inside the caller's transaction so a batch is validated and
// written as one.
//
// Order matters: the scope rules below need only the uids in the request, so
// they run before anything is read. A uid of another organization therefore
// gets the same answer whether or not it exists (no probing through errors).
import type { Caller } from '../../auth/caller.js';
import { isBuiltinRoleUid } from '../roles/builtin-roles.js';
import { Capability } from '../../gen/berth/capabilities/v1/capabilities_pb.js';
import type { FieldViolation } from '../../core/api-error.js';
import { isSelfOrBelow, isValidUid, parentOf } from '../../core/uidp.js';
import type { RoleBindingsTable } from '../iam-tables.js';
import type { Tx } from '../../store/transact.js';
import { existingBinding } from './existing-binding.js';
import { writeBinding } from './write-binding.js';
import { badIamRequest, groupNotFound, IAM_DOMAIN, identityNotFound, roleBindingExists, roleNotFound } from '../errors.js';
import { roleCapabilities } from '../roles/role-row.js';
import { bindingWithinIdentityScope, IDENTITY_SCOPE_RULE } from '../../auth/identity-scope.js';

export interface NewBinding {
  parent: string;
  identityUid: string;
  roleUid: string;
  /** Field path prefix for violations, e.g. "role_binding" or "requests[2].role_binding". */
  field: string;
  /** Kept when an update re-validates an existing binding. */
  keep?: { uid: string; createTime: string };
  /** The capability that lets the caller write it at the group: role_bindings.create, or .update for an update. */
  writeCapability?: Capability;
}

/** The violation on the identity, named `identityUid` as the request's JSON spells it. */
function identityField(b: NewBinding): string {
  return b.field === 'role_binding' ? 'identityUid' : `${b.field}.identityUid`;
}

export function requiredViolations(b: NewBinding): FieldViolation[] {
  const out: FieldViolation[] = [];
  if (b.identityUid === '') out.push({ field: `${b.field}.identity_uid`, description: 'identity_uid is required' });
  else if (!isValidUid(b.identityUid)) out.push({ field: `${b.field}.identity_uid`, description: 'identity_uid is not a valid uid' });
  if (b.roleUid === '') out.push({ field: `${b.field}.role_uid`, description: 'role_uid is required' });
  else if (!isValidUid(b.roleUid)) out.push({ field: `${b.field}.role_uid`, description: 'role_uid is not a valid uid' });
  return out;
}

/** Rules decided by the uids alone, checked before any row is read. */
export function scopeViolations(b: NewBinding): FieldViolation[] {
  const out: FieldViolation[] = [];
  if (!bindingWithinIdentityScope(b.identityUid, b.parent)) {
    out.push({
      field: identityField(b),
      description: IDENTITY_SCOPE_RULE,
    });
  }
  if (roleOutsideGroup(b.roleUid, b.parent)) out.push({ field: `${b.field}.role_uid`, description: ROLE_SCOPE_RULE });
  return out;
}

export const ROLE_SCOPE_RULE = 'the role is not defined at this group or above it';

/**
 * A custom role's uid lies under the group that defines it, and it only
 * means something there and below. Root-level role uids are the built-ins.
 * Bindings and invites (future bindings) alike.
 */
export function roleOutsideGroup(roleUid: string, group: string): boolean {
  const roleHome = parentOf(roleUid);
  return roleHome === '' ? !isBuiltinRoleUid(roleUid) : !isSelfOrBelow(group, roleHome);
}

/** Validates one binding against the database and inserts it; throws on the first problem. */
export async function insertBinding(tx: Tx, caller: Caller, b: NewBinding): Promise<RoleBindingsTable> {
  const bad = requiredViolations(b);
  if (bad.length > 0) throw badIamRequest(bad);
  const outOfScope = scopeViolations(b);
  if (outOfScope.length > 0) throw badIamRequest(outOfScope);
  const group = await tx.selectFrom('groups').select('uid').where('uid', '=', b.parent).executeTakeFirst();
  if (!group) throw groupNotFound(b.parent);
  const identity = await tx.selectFrom('identities').select('uid').where('uid', '=', b.identityUid).executeTakeFirst();
  if (!identity) throw identityNotFound(b.identityUid);
  const role = await tx.selectFrom('roles').select(['uid', 'builtin', 'capabilities']).where('uid', '=', b.roleUid).executeTakeFirst();
  if (!role) throw roleNotFound(b.roleUid);
  // Anti-escalation: a caller can hand out only what it holds at the group.
  await caller.require(IAM_DOMAIN, [b.writeCapability ?? Capability.CAP_IAM_ROLE_BINDINGS_CREATE, ...roleCapabilities(role)], b.parent);
  if (await existingBinding(tx, b.parent, b.identityUid, b.roleUid)) throw roleBindingExists(b.parent, b.identityUid, b.roleUid);
  return writeBinding(tx, { parent: b.parent, identityUid: b.identityUid, roleUid: b.roleUid, keep: b.keep, identityField: identityField(b) });
}

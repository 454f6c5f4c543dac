// Every error the IAM domain returns, made by name.
import { alreadyExists, failedPrecondition, invalidArgument, notFound, type FieldViolation } from '../core/api-error.js';

export const IAM_DOMAIN = 'iam.berth.dev';

export const badIamRequest = (violations: FieldViolation[]) => invalidArgument(IAM_DOMAIN, violations);

// Groups
export const groupNotFound = (uid: string) => notFound(IAM_DOMAIN, 'iam.berth.dev/Group', uid);
export const groupNotEmpty = (description: string) => failedPrecondition(IAM_DOMAIN, 'RESOURCE_NOT_EMPTY', description);
export const rootGroupNameTaken = (name: string) =>
  alreadyExists(IAM_DOMAIN, 'iam.berth.dev/Group', name, `an organization named ${JSON.stringify(name)} already exists`);

// Identities
export const identityNotFound = (uid: string) => notFound(IAM_DOMAIN, 'iam.berth.dev/Identity', uid);

// Roles and role bindings
export const roleNotFound = (uid: string) => notFound(IAM_DOMAIN, 'iam.berth.dev/Role', uid);
export const roleBindingNotFound = (uid: string) => notFound(IAM_DOMAIN, 'iam.berth.dev/RoleBinding', uid);
export const roleInUse = (uid: string) =>
  failedPrecondition(IAM_DOMAIN, 'RESOURCE_IN_USE', 'the role is used by at least one role binding; delete those first', uid);
export const builtinRoleImmutable = (uid: string) =>
  failedPrecondition(IAM_DOMAIN, 'BUILTIN_ROLE', 'built-in roles cannot be changed or deleted', uid);
export const roleBindingExists = (group: string, identity: string, role: string) =>
  alreadyExists(IAM_DOMAIN, 'iam.berth.dev/RoleBinding', `${group}:${identity}:${role}`, 'this identity already has this role on this group');

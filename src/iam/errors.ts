// Every error the IAM domain returns, made by name and declared in the catalogue.
import { Code } from '@connectrpc/connect';
import { alreadyExists, failedPrecondition, invalidArgument, notFound, permissionDenied, type FieldViolation } from '../core/api-error.js';
import { defineError } from '../core/error-catalogue.js';

export const IAM_DOMAIN = 'iam.berth.dev';
const d = IAM_DOMAIN;

export const badIamRequest = defineError(
  {
    domain: d,
    name: 'badIamRequest',
    code: Code.InvalidArgument,
    detail: 'BadRequest',
    when: "an invalid name, description, relationship, pattern or capability; a role binding above its identity's scope or with a role defined elsewhere",
  },
  (violations: FieldViolation[]) => invalidArgument(d, violations),
);

// Groups
export const groupNotFound = defineError(
  { domain: d, name: 'groupNotFound', code: Code.NotFound, detail: 'ResourceInfo', when: 'the group does not exist (and the caller may see its uid)' },
  (uid: string) => notFound(d, 'iam.berth.dev/Group', uid),
);
export const groupNotEmpty = defineError(
  {
    domain: d,
    name: 'groupNotEmpty',
    code: Code.FailedPrecondition,
    detail: 'PreconditionFailure',
    type: 'RESOURCE_NOT_EMPTY',
    when: 'deleting a group that still holds child groups, identities, custom roles or repos',
  },
  (description: string) => failedPrecondition(d, 'RESOURCE_NOT_EMPTY', description),
);
export const rootGroupNameTaken = defineError(
  { domain: d, name: 'rootGroupNameTaken', code: Code.AlreadyExists, detail: 'ResourceInfo', when: 'an organization of that name exists' },
  (name: string) => alreadyExists(d, 'iam.berth.dev/Group', name, `an organization named ${JSON.stringify(name)} already exists`),
);
export const orgCreationOff = defineError(
  {
    domain: d,
    name: 'orgCreationOff',
    code: Code.PermissionDenied,
    detail: 'ErrorInfo only',
    when: 'creating an organization on a server run with --allow-org-creation nobody',
  },
  () => permissionDenied(d, 'creating organizations through the API is turned off on this server (--allow-org-creation)'),
);
export const orgCreatorScoped = defineError(
  {
    domain: d,
    name: 'orgCreatorScoped',
    code: Code.PermissionDenied,
    detail: 'ErrorInfo only',
    when: 'an identity created under an organization tries to create another organization',
  },
  () => permissionDenied(d, 'an identity created under an organization cannot own another one; use a root-level identity'),
);
export const orgCreatorNotOwner = defineError(
  {
    domain: d,
    name: 'orgCreatorNotOwner',
    code: Code.PermissionDenied,
    detail: 'ErrorInfo only',
    when: 'creating an organization without the owner role on an existing one (--allow-org-creation owners)',
  },
  () => permissionDenied(d, 'creating an organization requires the owner role on an existing organization'),
);

// Identities
export const identityNotFound = defineError(
  { domain: d, name: 'identityNotFound', code: Code.NotFound, detail: 'ResourceInfo', when: 'the identity does not exist' },
  (uid: string) => notFound(d, 'iam.berth.dev/Identity', uid),
);

// Roles and role bindings
export const roleNotFound = defineError(
  { domain: d, name: 'roleNotFound', code: Code.NotFound, detail: 'ResourceInfo', when: 'the role does not exist' },
  (uid: string) => notFound(d, 'iam.berth.dev/Role', uid),
);
export const roleBindingNotFound = defineError(
  { domain: d, name: 'roleBindingNotFound', code: Code.NotFound, detail: 'ResourceInfo', when: 'the role binding does not exist' },
  (uid: string) => notFound(d, 'iam.berth.dev/RoleBinding', uid),
);
export const roleInUse = defineError(
  {
    domain: d,
    name: 'roleInUse',
    code: Code.FailedPrecondition,
    detail: 'PreconditionFailure',
    type: 'RESOURCE_IN_USE',
    when: 'deleting a role that a role binding, an identity provider (its default role) or an external group role mapping still uses',
  },
  (uid: string, user = 'role binding') =>
    failedPrecondition(d, 'RESOURCE_IN_USE', `the role is used by at least one ${user}; change or delete those first`, uid),
);
export const builtinRoleImmutable = defineError(
  {
    domain: d,
    name: 'builtinRoleImmutable',
    code: Code.FailedPrecondition,
    detail: 'PreconditionFailure',
    type: 'BUILTIN_ROLE',
    when: 'updating or deleting a built-in role (answered before authorization: built-in role uids are public)',
  },
  (uid: string) => failedPrecondition(d, 'BUILTIN_ROLE', 'built-in roles cannot be changed or deleted', uid),
);
export const roleBindingExists = defineError(
  { domain: d, name: 'roleBindingExists', code: Code.AlreadyExists, detail: 'ResourceInfo', when: 'the identity already has this role on this group' },
  (group: string, identity: string, role: string) =>
    alreadyExists(d, 'iam.berth.dev/RoleBinding', `${group}:${identity}:${role}`, 'this identity already has this role on this group'),
);

// Identity providers and external group role mappings
export const identityProviderNotFound = defineError(
  { domain: d, name: 'identityProviderNotFound', code: Code.NotFound, detail: 'ResourceInfo', when: 'the identity provider does not exist' },
  (uid: string) => notFound(d, 'iam.berth.dev/IdentityProvider', uid),
);
export const clientSecretNeedsKey = defineError(
  {
    domain: d,
    name: 'clientSecretNeedsKey',
    code: Code.FailedPrecondition,
    detail: 'PreconditionFailure',
    type: 'SECRETS_KEY_REQUIRED',
    when: 'storing an identity provider client secret on a server started without --secrets-key-file (secrets are only stored sealed)',
  },
  () =>
    failedPrecondition(
      d,
      'SECRETS_KEY_REQUIRED',
      'client secrets are stored encrypted: the server must run with --secrets-key-file (or BERTH_SECRETS_KEY) to accept one',
    ),
);
export const externalGroupRoleMappingNotFound = defineError(
  { domain: d, name: 'externalGroupRoleMappingNotFound', code: Code.NotFound, detail: 'ResourceInfo', when: 'the external group role mapping does not exist' },
  (uid: string) => notFound(d, 'iam.berth.dev/ExternalGroupRoleMapping', uid),
);
export const externalGroupRoleMappingExists = defineError(
  {
    domain: d,
    name: 'externalGroupRoleMappingExists',
    code: Code.AlreadyExists,
    detail: 'ResourceInfo',
    when: 'the identity provider already maps this external group to this role on this scope',
  },
  (provider: string, group: string, role: string, scope: string) =>
    alreadyExists(
      d,
      'iam.berth.dev/ExternalGroupRoleMapping',
      `${provider}:${group}:${role}:${scope}`,
      'this identity provider already maps this external group to this role on this scope',
    ),
);

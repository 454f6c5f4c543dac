// Every error the IAM domain returns, made by name and declared in the catalogue.
import { Code } from '@connectrpc/connect';
import {
  alreadyExists,
  failedPrecondition,
  failedPreconditionWithoutDetail,
  invalidArgument,
  notFound,
  permissionDenied,
  resourceExhausted,
  unimplemented,
  type FieldViolation,
} from '../core/api-error.js';
import { defineError } from '../core/error-catalogue.js';

export const IAM_DOMAIN = 'iam.berth.dev';
const d = IAM_DOMAIN;

export const badIamRequest = defineError(
  {
    domain: d,
    name: 'badIamRequest',
    code: Code.InvalidArgument,
    detail: 'BadRequest',
    when: "an invalid name, description, relationship, pattern or capability; a role binding above its identity's scope or with a role defined elsewhere; an invite's bad ttl, email or role; an account association's bad provider fields; terms documents the server does not offer",
  },
  (violations: FieldViolation[]) => invalidArgument(d, violations),
);

// v1 (the /iam/v1 shapes over the v2 services)
export const deleteBlockedV1 = defineError(
  {
    domain: d,
    name: 'deleteBlockedV1',
    code: Code.FailedPrecondition,
    detail: 'ErrorInfo only',
    when: 'a v1 Delete of a group that is not empty or a role still in use: v1 keeps its failure without the PreconditionFailure detail v2 gives',
  },
  (text: string) => failedPreconditionWithoutDetail(d, text),
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

// Joining an organization by email domain (LookupGroup, RequestGroupAccess and the access requests)
export const noOrganizationForCaller = defineError(
  {
    domain: d,
    name: 'noOrganizationForCaller',
    code: Code.NotFound,
    detail: 'ResourceInfo',
    when: "LookupGroup, or RequestGroupAccess for any group but it: no organization has verified the domain of the caller's verified email, or the caller has none, or its identity lives in another organization",
  },
  (uid?: string) => notFound(d, 'iam.berth.dev/Group', uid ?? ''),
);
export const accessRequestRepeated = defineError(
  {
    domain: d,
    name: 'accessRequestRepeated',
    code: Code.ResourceExhausted,
    detail: 'ErrorInfo only',
    when: 'RequestGroupAccess while the caller has a request pending there, or one denied less than a day ago',
  },
  () => resourceExhausted(d, 'an access request to this organization is pending or was denied recently; wait for its owners'),
);
export const alreadyMember = defineError(
  {
    domain: d,
    name: 'alreadyMember',
    code: Code.FailedPrecondition,
    detail: 'PreconditionFailure',
    type: 'ALREADY_MEMBER',
    when: 'RequestGroupAccess by an identity that already holds a role binding on the organization',
  },
  (org: string) => failedPrecondition(d, 'ALREADY_MEMBER', 'the caller already holds a role binding on this organization', org),
);
export const accessRequestNotFound = defineError(
  { domain: d, name: 'accessRequestNotFound', code: Code.NotFound, detail: 'ResourceInfo', when: 'the group access request does not exist' },
  (uid: string) => notFound(d, 'iam.berth.dev/GroupAccessRequest', uid),
);
export const accessRequestDecided = defineError(
  {
    domain: d,
    name: 'accessRequestDecided',
    code: Code.FailedPrecondition,
    detail: 'PreconditionFailure',
    type: 'ACCESS_REQUEST_DECIDED',
    when: 'approving or denying a group access request that was already approved or denied',
  },
  (uid: string, state: string) => failedPrecondition(d, 'ACCESS_REQUEST_DECIDED', `the access request was already ${state}`, uid),
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
export const lastOwnerBinding = defineError(
  {
    domain: d,
    name: 'lastOwnerBinding',
    code: Code.FailedPrecondition,
    detail: 'PreconditionFailure',
    type: 'LAST_OWNER',
    when: "a change that would leave an organization without a role binding on its root group granting every owner capability: deleting or re-roling that binding, deleting its identity, its external group mapping or identity provider, narrowing its custom role, or a sign in's group sync",
  },
  (org: string) =>
    failedPrecondition(
      d,
      'LAST_OWNER',
      'this would leave the organization without a role binding granting every owner capability; bind another owner first',
      org,
    ),
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

// Group invites
export const inviteNotFound = defineError(
  { domain: d, name: 'inviteNotFound', code: Code.NotFound, detail: 'ResourceInfo', when: 'the group invite does not exist' },
  (uid: string) => notFound(d, 'iam.berth.dev/GroupInvite', uid),
);
// Forged, mistyped and deleted codes get one answer: deleted invites leave no
// row behind to tell them apart, and telling them apart would make Register an
// oracle for which codes were ever issued.
export const inviteCodeInvalid = defineError(
  {
    domain: d,
    name: 'inviteCodeInvalid',
    code: Code.InvalidArgument,
    detail: 'BadRequest',
    when: 'an invite code that was never issued, is mistyped or forged, or whose invite was deleted (one answer for all, so codes cannot be probed)',
  },
  () => invalidArgument(d, [{ field: 'code', description: 'the invite code is not valid: it is mistyped, or its invite was deleted' }]),
);
export const inviteExpired = defineError(
  {
    domain: d,
    name: 'inviteExpired',
    code: Code.FailedPrecondition,
    detail: 'PreconditionFailure',
    type: 'INVITE_EXPIRED',
    when: 'accepting an invite whose ttl has run out',
  },
  (expiredAt: string) => failedPrecondition(d, 'INVITE_EXPIRED', `the invite expired at ${expiredAt}; ask for a new one`),
);
export const inviteUsed = defineError(
  {
    domain: d,
    name: 'inviteUsed',
    code: Code.FailedPrecondition,
    detail: 'PreconditionFailure',
    type: 'INVITE_USED',
    when: 'accepting a single-use invite that was accepted already',
  },
  () => failedPrecondition(d, 'INVITE_USED', 'the invite was for a single use and has been accepted already; ask for a new one'),
);
export const inviteVoid = defineError(
  {
    domain: d,
    name: 'inviteVoid',
    code: Code.FailedPrecondition,
    detail: 'PreconditionFailure',
    type: 'INVITE_VOID',
    when: "accepting an invite whose creator was deleted or no longer holds role_bindings.create and every capability of the invite's role at its group (listed with an expirationTime no later than now)",
  },
  () => failedPrecondition(d, 'INVITE_VOID', 'the invite is void: whoever created it no longer has the authority to grant its role here; ask for a new one'),
);
export const inviteOutOfScope = defineError(
  {
    domain: d,
    name: 'inviteOutOfScope',
    code: Code.FailedPrecondition,
    detail: 'PreconditionFailure',
    type: 'IDENTITY_SCOPE',
    when: "accepting an invite to a group outside the caller's identity scope (an identity created under another group)",
  },
  () =>
    failedPrecondition(
      d,
      'IDENTITY_SCOPE',
      'this identity was created under a group and can join only that group and groups below it; accept the invite with a root-level identity',
    ),
);
export const inviteEmailMismatch = defineError(
  {
    domain: d,
    name: 'inviteEmailMismatch',
    code: Code.PermissionDenied,
    detail: 'ErrorInfo only',
    when: "accepting an invite made for an email address that is not the caller identity's verified email",
  },
  () => permissionDenied(d, "the invite is for a specific email address, and it is not this identity's verified email"),
);

// Account associations
export const accountAssociationNotFound = defineError(
  { domain: d, name: 'accountAssociationNotFound', code: Code.NotFound, detail: 'ResourceInfo', when: 'the group has no account association' },
  (uid: string) => notFound(d, 'iam.berth.dev/AccountAssociation', uid),
);
export const accountAssociationExists = defineError(
  {
    domain: d,
    name: 'accountAssociationExists',
    code: Code.AlreadyExists,
    detail: 'ResourceInfo',
    when: 'creating an account association for a group that has one (update it instead)',
  },
  (uid: string) => alreadyExists(d, 'iam.berth.dev/AccountAssociation', uid, 'the group already has an account association; update it instead'),
);
export const accountCheckUnsupported = defineError(
  {
    domain: d,
    name: 'accountCheckUnsupported',
    code: Code.Unimplemented,
    detail: 'ErrorInfo only',
    when: 'CheckAccountAssociation for a provider the association configures: Berth holds no cloud credentials and makes no live exchange',
  },
  (provider: string) =>
    unimplemented(d, `Berth does not check ${provider} associations against the provider: it holds no cloud credentials and makes no live credential exchange`),
);

// SCIM provisioning (docs/scim.md)
export const scimTokenExists = defineError(
  {
    domain: d,
    name: 'scimTokenExists',
    code: Code.FailedPrecondition,
    detail: 'PreconditionFailure',
    type: 'SCIM_TOKEN_EXISTS',
    when: 'GenerateScimToken for a provider that has a SCIM token (regenerate or revoke it instead)',
  },
  () => failedPrecondition(d, 'SCIM_TOKEN_EXISTS', 'the identity provider already has a SCIM token; regenerate or revoke it'),
);
export const scimTokenNotFound = defineError(
  { domain: d, name: 'scimTokenNotFound', code: Code.NotFound, detail: 'ResourceInfo', when: 'RegenerateScimToken for a provider that has no SCIM token' },
  (providerUid: string) => notFound(d, 'iam.berth.dev/ScimToken', providerUid),
);
export const scimEtagMismatch = defineError(
  {
    domain: d,
    name: 'scimEtagMismatch',
    code: Code.FailedPrecondition,
    detail: 'PreconditionFailure',
    type: 'ETAG_MISMATCH',
    when: "RegenerateScimToken or SetScimEnabled with an etag that is not the provider's current SCIM etag (read it again with GetIdentityProvider)",
  },
  () => failedPrecondition(d, 'ETAG_MISMATCH', "the etag is not the provider's current SCIM etag; read the provider again and retry"),
);
export const scimUserDeprovisioned = defineError(
  {
    domain: d,
    name: 'scimUserDeprovisioned',
    code: Code.PermissionDenied,
    detail: 'ErrorInfo only',
    when: 'signing in through a provider whose SCIM client deactivated the user (active: false)',
  },
  () => permissionDenied(d, 'this user was deprovisioned by the identity provider (SCIM active: false)'),
);

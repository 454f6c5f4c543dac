// The URNs of SCIM 2.0 (RFC 7643 §8.7.1, RFC 7644 §3) Berth reads and writes.
export const USER_SCHEMA = 'urn:ietf:params:scim:schemas:core:2.0:User';
export const GROUP_SCHEMA = 'urn:ietf:params:scim:schemas:core:2.0:Group';
export const ENTERPRISE_USER_SCHEMA = 'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User';
export const LIST_RESPONSE = 'urn:ietf:params:scim:api:messages:2.0:ListResponse';
export const PATCH_OP = 'urn:ietf:params:scim:api:messages:2.0:PatchOp';
export const SERVICE_PROVIDER_CONFIG_SCHEMA = 'urn:ietf:params:scim:schemas:core:2.0:ServiceProviderConfig';
export const RESOURCE_TYPE_SCHEMA = 'urn:ietf:params:scim:schemas:core:2.0:ResourceType';
export const SCHEMA_SCHEMA = 'urn:ietf:params:scim:schemas:core:2.0:Schema';

/** Limits of the SCIM listener (docs/scim.md). */
export const SCIM_LIMITS = {
  /** Largest request body. */
  bodyBytes: 256 * 1024,
  /** Largest stored user resource, as JSON. */
  userBytes: 32 * 1024,
  /** Operations in one PATCH. */
  patchOperations: 100,
  /** Members one request adds, removes or sets. */
  membersPerRequest: 1000,
  /** Resources on one page of a list (count). */
  pageSize: 200,
  /** Length of userName, externalId, displayName. */
  nameLength: 256,
  /** Nesting of a resource's JSON. */
  depth: 8,
} as const;

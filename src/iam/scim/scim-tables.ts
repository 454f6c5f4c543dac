// The tables of SCIM provisioning (migration 0030).
export interface IdentityProviderScimTable {
  provider_uid: string;
  enabled: number;
  /** SHA-256 (hex) of the current token; NULL when none. */
  token_hash: string | null;
  /** NULL: never expires. */
  token_expire_time: string | null;
  /** SHA-256 (hex) of the token a regenerate replaced, valid until previous_token_expire_time. */
  previous_token_hash: string | null;
  previous_token_expire_time: string | null;
  revoke_time: string | null;
  etag: string;
  update_time: string;
}

export interface ScimUsersTable {
  provider_uid: string;
  /** The uid of the identity it provisions. */
  id: string;
  user_name: string;
  user_name_key: string;
  /** The subject of the identity's claimMatch (externalId, else userName, at creation). */
  subject: string;
  external_id: string | null;
  display_name: string;
  active: number;
  /** JSON of the user's attributes as the client last wrote them (no id, meta or schemas). */
  resource: string;
  /** JSON array: the groups the provider's ID token named at the user's last sign in. */
  token_groups: string;
  version: number;
  create_time: string;
  update_time: string;
}

export interface ScimGroupsTable {
  provider_uid: string;
  id: string;
  display_name: string;
  external_id: string | null;
  version: number;
  create_time: string;
  update_time: string;
}

export interface ScimGroupMembersTable {
  provider_uid: string;
  group_id: string;
  user_id: string;
}

declare module '../../store/database.js' {
  interface Database {
    identity_provider_scim: IdentityProviderScimTable;
    scim_users: ScimUsersTable;
    scim_groups: ScimGroupsTable;
    scim_group_members: ScimGroupMembersTable;
  }
}

// IAM's tables. Root groups, root-level identities and built-in roles have no
// parent: parent_uid is NULL, so every other parent_uid is a foreign key to
// its group and the database itself refuses to delete a group that still
// holds anything (migration 0004). Invites, account associations and terms
// acceptances go with their group instead (migration 0007).
import type { ResourceColumns } from '../store/database.js';

export interface GroupsTable extends ResourceColumns {
  parent_uid: string | null;
  name: string;
  description: string;
  verified: number;
}

export interface IdentitiesTable extends ResourceColumns {
  parent_uid: string | null;
  name: string;
  description: string;
  company: string;
  email: string;
  /** 'claim_match' | 'static' */
  relationship_type: string;
  /** proto JSON of Identity.claim_match or Identity.static_keys */
  relationship: string;
  issuer: string;
  subject: string;
  last_seen_time: string;
}

export interface RolesTable extends ResourceColumns {
  parent_uid: string | null;
  name: string;
  description: string;
  /** JSON array of Capability numbers */
  capabilities: string;
  builtin: number;
}

export interface RoleBindingsTable extends ResourceColumns {
  parent_uid: string;
  identity_uid: string;
  role_uid: string;
  /**
   * The external group role mapping that made this binding at sign in, or
   * NULL for a binding made any other way (migration 0008). Only the mapping
   * sync touches bindings that have one; they go with their mapping.
   */
  mapping_uid: string | null;
}

export interface IdentityProvidersTable extends ResourceColumns {
  parent_uid: string;
  name: string;
  description: string;
  default_role_uid: string;
  issuer: string;
  client_id: string;
  /** Sealed with the secrets key (secret-sealing.ts); '' when the provider has none. */
  client_secret: string;
  /** JSON array of scope strings */
  additional_scopes: string;
  groups_claim: string;
  pkce_enabled: number;
  /** The identity that vouches for the default role (migration 0021); NULL: nobody, so sign in binds none. */
  default_role_by: string | null;
}

export interface ExternalGroupRoleMappingsTable extends ResourceColumns {
  /** The identity provider. */
  parent_uid: string;
  external_group_id: string;
  role_uid: string;
  /** The group the role is bound on. */
  scope_uid: string;
  /** The identity that created it and vouches for its role (migration 0021); NULL: nobody, so it gives nothing. */
  created_by: string | null;
}

export interface GroupInvitesTable extends ResourceColumns {
  parent_uid: string;
  role_uid: string;
  /** '' when anyone holding the code may accept. */
  email: string;
  single_use: number;
  key_id: string;
  /** sha256 (hex) of the code. */
  code_hash: string;
  expiration_time: string;
  used_time: string | null;
  used_by: string | null;
  /** The identity that created it and vouches for its role (migration 0021); NULL: nobody, so it is void. */
  created_by: string | null;
}

/** uid is the group's uid; parent_uid the group's parent (NULL for an organization). */
export interface AccountAssociationsTable extends ResourceColumns {
  parent_uid: string | null;
  name: string;
  description: string;
  /** proto JSON of the providers (amazon, google, azure, github) */
  providers: string;
}

export interface TermsAcceptancesTable extends ResourceColumns {
  group_uid: string;
  doc_id: string;
  /** uid of the identity that accepted */
  accepted_by: string;
}

declare module '../store/database.js' {
  interface Database {
    groups: GroupsTable;
    identities: IdentitiesTable;
    roles: RolesTable;
    role_bindings: RoleBindingsTable;
    identity_providers: IdentityProvidersTable;
    external_group_role_mappings: ExternalGroupRoleMappingsTable;
    group_invites: GroupInvitesTable;
    account_associations: AccountAssociationsTable;
    terms_acceptances: TermsAcceptancesTable;
  }
}

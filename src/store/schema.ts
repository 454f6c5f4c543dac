// The tables, as Kysely sees them. Timestamps are RFC 3339 text with
// milliseconds; booleans are 0/1 integers, so one schema serves both databases.
import type { Generated } from 'kysely';

interface Timestamps {
  create_time: string;
  update_time: string;
}

export interface GroupsTable extends Timestamps {
  uid: string;
  parent_uid: string;
  name: string;
  description: string;
  verified: number;
}

export interface IdentitiesTable extends Timestamps {
  uid: string;
  parent_uid: string;
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

export interface RolesTable extends Timestamps {
  uid: string;
  parent_uid: string;
  name: string;
  description: string;
  /** JSON array of Capability numbers */
  capabilities: string;
  builtin: number;
}

export interface RoleBindingsTable extends Timestamps {
  uid: string;
  parent_uid: string;
  identity_uid: string;
  role_uid: string;
}

export interface ReposTable extends Timestamps {
  uid: string;
  parent_uid: string;
  name: string;
  description: string;
  readme: string;
}

export interface TagsTable extends Timestamps {
  uid: string;
  parent_uid: string;
  name: string;
  digest: string;
  deprecated: number;
}

export interface TagHistoryTable {
  id: Generated<number>;
  repo_uid: string;
  tag_name: string;
  digest: string;
  update_time: string;
}

export interface SigningKeysTable {
  kid: string;
  algorithm: string;
  private_jwk: string;
  public_jwk: string;
  create_time: string;
}

export interface SettingsTable {
  key: string;
  value: string;
}

export interface TableVersionsTable {
  table_name: string;
  version: number | string;
}

/** Static-key assertions /sts/exchange accepted, kept until they expire. */
export interface UsedAssertionsTable {
  id: string;
  expire_time: string;
}

export interface Database {
  table_versions: TableVersionsTable;
  groups: GroupsTable;
  identities: IdentitiesTable;
  roles: RolesTable;
  role_bindings: RoleBindingsTable;
  repos: ReposTable;
  tags: TagsTable;
  tag_history: TagHistoryTable;
  signing_keys: SigningKeysTable;
  settings: SettingsTable;
  used_assertions: UsedAssertionsTable;
}

export type ResourceTable = 'groups' | 'identities' | 'roles' | 'role_bindings' | 'repos' | 'tags';

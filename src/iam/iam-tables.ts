// IAM's tables. Root groups, root-level identities and built-in roles have no
// parent: parent_uid is NULL, so every other parent_uid is a foreign key to
// its group and the database itself refuses to delete a group that still
// holds anything (migration 0004).
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
}

declare module '../store/database.js' {
  interface Database {
    groups: GroupsTable;
    identities: IdentitiesTable;
    roles: RolesTable;
    role_bindings: RoleBindingsTable;
  }
}

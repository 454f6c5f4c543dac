// The tables of joining an organization by email domain (migration 0029).
export interface OrgDomainsTable {
  /** Lower case, e.g. "example.com". */
  domain: string;
  /** The organization (a root group). */
  group_uid: string;
  create_time: string;
}

export type AccessRequestState = 'pending' | 'approved' | 'denied';

export interface GroupAccessRequestsTable {
  /** A child uid of the organization. */
  uid: string;
  /** The organization. */
  parent_uid: string;
  identity_uid: string;
  /** The requester's verified email when it asked. */
  email: string;
  state: AccessRequestState;
  /** Approved: the binding made; else ''. */
  role_binding_uid: string;
  /** Who approved or denied it; '' while pending. */
  decided_by: string;
  decide_time: string | null;
  create_time: string;
  update_time: string;
}

export interface IdentityMetadataTable {
  identity_uid: string;
  /** proto JSON of IdentityMetadata's own fields (not uid, name, given and family name, company). */
  fields: string;
  update_time: string;
}

declare module '../../store/database.js' {
  interface Database {
    org_domains: OrgDomainsTable;
    group_access_requests: GroupAccessRequestsTable;
    identity_metadata: IdentityMetadataTable;
  }
}

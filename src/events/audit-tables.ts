// The audit log's table (migration 0031, docs/audit.md). An entry's uid sits
// below its group (parent_uid), so the list engine's subtree scopes and uidp
// filters serve it as they serve any resource. No foreign key: entries
// outlive what they record (a deleted group, repo or identity) until
// retention removes them. Not version-counted: every mutation writes a row,
// and a list counts its matches instead.
export interface AuditEntriesTable {
  /** `<group uid>/<16 hex>`. */
  uid: string;
  /** The group of the change (for a refused attempt, the uid the permission was checked at). */
  parent_uid: string;
  /** Identity uid of the caller or pushing identity; '' for Berth itself. */
  identity: string;
  /** The RPC ("berth.iam.v2.GroupsService/CreateGroup") or registry action ("registry.push"). */
  action: string;
  resource_uid: string;
  resource_type: string;
  /** For registry actions: repository, tag and digest; '' otherwise. */
  resource_name: string;
  /** The caller's IP address; '' when the change came from no request. */
  address: string;
  /** AUDIT_SUCCEEDED or AUDIT_DENIED (AuditEntry.Outcome). */
  outcome: number;
  create_time: string;
}

export const AUDIT_SUCCEEDED = 1;
export const AUDIT_DENIED = 2;

declare module '../store/database.js' {
  interface Database {
    audit_entries: AuditEntriesTable;
  }
}

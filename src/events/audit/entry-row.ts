// Audit entries as stored (audit_entries) and as the API shows them.
import { create } from '@bufbuild/protobuf';
import { AuditEntrySchema, type AuditEntry } from '../../gen/berth/audit/v2/audit_pb.js';
import { isoToTimestamp } from '../../core/clock.js';
import type { AuditEntriesTable } from '../audit-tables.js';

export type EntryRow = AuditEntriesTable;

export function entryFromRow(row: EntryRow): AuditEntry {
  return create(AuditEntrySchema, {
    uid: row.uid,
    group: row.parent_uid,
    identity: row.identity,
    action: row.action,
    resourceUid: row.resource_uid,
    resourceType: row.resource_type,
    resourceName: row.resource_name,
    address: row.address,
    outcome: row.outcome,
    createTime: isoToTimestamp(row.create_time),
  });
}

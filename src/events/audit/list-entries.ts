// ListEntries: unscoped in the guard, so the list narrows itself to the
// subtrees where the caller holds audit.list (an entry's uid lies below its
// group). Group filters are the uidp filters; identity, resource and a time
// range are this list's own. Newest first unless order_by says otherwise.
import type { HandlerContext } from '@connectrpc/connect';
import type { Timestamp } from '@bufbuild/protobuf/wkt';
import { Capability } from '../../gen/berth/capabilities/v1/capabilities_pb.js';
import type { ListEntriesRequest, ListEntriesResponse } from '../../gen/berth/audit/v2/audit_pb.js';
import { callerOf } from '../../auth/caller.js';
import type { FieldViolation } from '../../core/api-error.js';
import { atLeast, equal, type Condition } from '../../list/conditions.js';
import { runList, type ListSpec } from '../../list/run-list.js';
import type { ServiceDeps } from '../../runtime/service-deps.js';
import { entryFromRow, type EntryRow } from './entry-row.js';

export const AUDIT_DOMAIN = 'audit.berth.dev';

export const AUDIT_LIST: ListSpec = {
  table: 'audit_entries',
  domain: AUDIT_DOMAIN,
  columns: { uid: 'uid', created_at: 'create_time' },
  defaultOrder: { field: 'created_at', desc: true },
};

const MAX_FILTER = 600;

function before(column: string, value: string): Condition {
  return { shape: `${column} <`, values: [value], where: (eb, [v]) => eb(column, '<', v) };
}

/** The ISO text of a time filter; a violation when it is out of range. */
function isoOf(ts: Timestamp | undefined, field: string, violations: FieldViolation[]): string | undefined {
  if (!ts) return undefined;
  const ms = Number(ts.seconds) * 1000 + Math.floor(ts.nanos / 1e6);
  const year = new Date(ms).getUTCFullYear();
  if (!Number.isFinite(ms) || !(year >= 1 && year <= 9999)) {
    violations.push({ field, description: `${field} must lie between the years 1 and 9999` });
    return undefined;
  }
  return new Date(ms).toISOString();
}

export async function listEntries(deps: ServiceDeps, req: ListEntriesRequest, ctx: HandlerContext): Promise<ListEntriesResponse> {
  const caller = callerOf(ctx, AUDIT_DOMAIN);
  const violations: FieldViolation[] = [];
  const conditions: Condition[] = [];
  for (const [field, column, value] of [
    ['identity', 'identity', req.identity],
    ['resource_uid', 'resource_uid', req.resourceUid],
  ] as const) {
    if (value.length > MAX_FILTER) violations.push({ field, description: `at most ${MAX_FILTER} characters` });
    else if (value !== '') conditions.push(equal(column, value));
  }
  const start = isoOf(req.startTime, 'start_time', violations);
  const end = isoOf(req.endTime, 'end_time', violations);
  if (start !== undefined) conditions.push(atLeast('create_time', start));
  if (end !== undefined) conditions.push(before('create_time', end));
  const visible = await caller.scopes(Capability.CAP_AUDIT_LIST);
  const page = await runList<EntryRow>(
    deps,
    AUDIT_LIST,
    req,
    { conditions, key: [req.identity, req.resourceUid, start ?? null, end ?? null], violations },
    visible,
    caller.tableVersions,
  );
  return {
    $typeName: 'berth.audit.v2.ListEntriesResponse',
    entries: page.rows.map(entryFromRow),
    nextPageToken: page.nextPageToken,
    totalCount: page.totalCount,
    skipped: page.skipped,
  };
}

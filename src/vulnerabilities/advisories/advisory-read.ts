// Advisories as the v2 API shows them: a page of advisory rows gets its
// events in one query and its severities in another (the imported
// vulnerability metadata of the page's aliases, by the same enum names),
// whatever the page size.
import { create, fromJson, type JsonValue } from '@bufbuild/protobuf';
import {
  AdvisoryEventSchema,
  AdvisorySchema,
  Severity_Type,
  SeveritySchema,
  type Advisory,
  type AdvisoryEvent,
  type Severity,
} from '../../gen/berth/vulnerabilities/v2/advisories_pb.js';
import { isoToTimestamp } from '../../core/clock.js';
import type { Executor } from '../../store/transact.js';
import '../metadata-tables.js';
import { advisoryNotFound } from '../errors.js';
import type { AdvisoriesTable, AdvisoryEventsTable } from '../advisory-tables.js';
import { statementChunks } from '../../store/statement-chunks.js';

export type AdvisoryRow = AdvisoriesTable;
export type AdvisoryEventRow = AdvisoryEventsTable;

export function aliasesOf(row: Pick<AdvisoryRow, 'aliases'>): string[] {
  return JSON.parse(row.aliases) as string[];
}

export function eventFromRow(row: AdvisoryEventRow): AdvisoryEvent {
  const e = fromJson(AdvisoryEventSchema, JSON.parse(row.data) as JsonValue, { ignoreUnknownFields: true });
  e.uid = row.uid;
  e.createTime = isoToTimestamp(row.create_time);
  e.author = row.author;
  e.reviewer = row.reviewer;
  e.reviewState = row.review_state;
  if (row.findings) e.findings = row.findings instanceof Uint8Array ? row.findings : new Uint8Array(row.findings);
  if (row.issue !== null) e.issue = row.issue;
  return e;
}

/** The events of the advisories `uids`, oldest first (by create_time, then uid), by advisory. */
export async function eventsOf(db: Executor, uids: readonly string[]): Promise<Map<string, AdvisoryEventRow[]>> {
  const out = new Map<string, AdvisoryEventRow[]>();
  for (const part of statementChunks(uids)) {
    if (part.length === 0) continue;
    const rows = await db.selectFrom('advisory_events').selectAll().where('advisory_uid', 'in', part).orderBy('create_time').orderBy('uid').execute();
    for (const r of rows) {
      const list = out.get(r.advisory_uid);
      if (list) list.push(r);
      else out.set(r.advisory_uid, [r]);
    }
  }
  return out;
}

/** berth.advisory.v2.Severity JSON → vulnerabilities.v2 Severity, by the enum's name. */
function severityOf(json: { type?: string | number; score?: string }): Severity {
  const t = json.type;
  const type =
    typeof t === 'number'
      ? Severity_Type[t] !== undefined
        ? t
        : 0
      : ((Severity_Type as unknown as Record<string, number>)[String(t ?? '').replace(/^TYPE_/, '')] ?? 0);
  return create(SeveritySchema, { type, score: json.score ?? '' });
}

/** The severities of each alias with imported vulnerability metadata. */
export async function severitiesOf(db: Executor, aliases: readonly string[]): Promise<Map<string, Severity[]>> {
  const out = new Map<string, Severity[]>();
  for (const part of statementChunks([...new Set(aliases)])) {
    if (part.length === 0) continue;
    const rows = await db.selectFrom('vulnerability_metadata').select(['id', 'severities']).where('id', 'in', part).execute();
    for (const r of rows) {
      let list: unknown;
      try {
        list = JSON.parse(r.severities);
      } catch {
        continue; // unreadable metadata adds no severity rather than failing the list
      }
      if (Array.isArray(list)) out.set(r.id, list.filter((s) => s && typeof s === 'object').map(severityOf));
    }
  }
  return out;
}

export function advisoryFromRow(row: AdvisoryRow, events: readonly AdvisoryEventRow[], severities: ReadonlyMap<string, Severity[]>): Advisory {
  const aliases = aliasesOf(row);
  const seen = new Set<string>();
  const sev: Severity[] = [];
  for (const alias of aliases) {
    for (const s of severities.get(alias) ?? []) {
      const k = `${s.type}\u0000${s.score}`;
      if (seen.has(k)) continue;
      seen.add(k);
      sev.push(s);
    }
  }
  return create(AdvisorySchema, {
    uid: row.uid,
    advisoryId: row.advisory_id,
    legacyAdvisoryId: row.legacy_advisory_id ?? undefined,
    createTime: isoToTimestamp(row.create_time),
    updateTime: isoToTimestamp(row.update_time),
    author: row.author,
    artifactName: row.artifact_name,
    artifactType: row.artifact_type,
    artifactArchitecture: row.artifact_architecture,
    componentName: row.component_name,
    componentLocation: row.component_location,
    componentType: row.component_type,
    aliases,
    events: events.map(eventFromRow),
    severities: sev,
  });
}

/** The v2 messages of a page of rows: two queries, whatever the page size. */
export async function advisoriesFromRows(db: Executor, rows: readonly AdvisoryRow[]): Promise<Advisory[]> {
  if (rows.length === 0) return [];
  const events = await eventsOf(
    db,
    rows.map((r) => r.uid),
  );
  const severities = await severitiesOf(
    db,
    rows.flatMap((r) => aliasesOf(r)),
  );
  return rows.map((r) => advisoryFromRow(r, events.get(r.uid) ?? [], severities));
}

/** The advisory `uid`; NOT_FOUND when there is none. */
export async function loadAdvisoryRow(db: Executor, uid: string): Promise<AdvisoryRow> {
  const row = await db.selectFrom('advisories').selectAll().where('uid', '=', uid).executeTakeFirst();
  if (!row) throw advisoryNotFound(uid);
  return row;
}

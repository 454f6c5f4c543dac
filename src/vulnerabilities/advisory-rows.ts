// How an advisory and its events become rows, for every writer (the importer
// and the v1 API): the search text, the aliases rows, the event row and its
// content hash, and the latest approved event type. One place, so the
// filters read the same thing whoever wrote it.
import type { Tx } from '../store/transact.js';
import { ReviewState } from '../gen/berth/vulnerabilities/v2/advisories_pb.js';
import { eventContentHash } from './advisory-ids.js';
import { refreshRanges } from './affected/range-writer.js';
import { KIND_NAMES } from './event-kinds.js';
import type { NormalizedAdvisory, NormalizedEvent } from './import/normalized-advisory.js';
import type { AdvisoriesTable, AdvisoryEventsTable } from './advisory-tables.js';

/** advisories.source of the rows the v1 API writes (an import writes its format's name). */
export const API_SOURCE = 'api';

/** What `query` searches: lower-cased artifact name, component name and aliases, one per line. */

export function searchText(artifactName: string, componentName: string, aliases: readonly string[]): string {
  return [artifactName, componentName, ...aliases].join('\n').toLowerCase();
}

/** The advisories row of a normalized advisory: every writer builds it here, so search and aliases read alike. */
export function advisoryRow(
  a: NormalizedAdvisory,
  at: { uid: string; group: string; source: string; sourceFile: string; latestEventType: number; createTime: string; updateTime: string },
): AdvisoriesTable {
  return {
    uid: at.uid,
    parent_uid: at.group,
    advisory_id: a.advisoryId,
    legacy_advisory_id: a.legacyAdvisoryId ?? null,
    origin: a.origin,
    package_namespace: a.packageNamespace,
    author: a.author,
    artifact_name: a.artifactName,
    artifact_type: a.artifactType,
    artifact_architecture: a.artifactArchitecture,
    component_name: a.componentName,
    component_type: a.componentType,
    component_location: a.componentLocation,
    aliases: JSON.stringify(a.aliases),
    search: searchText(a.artifactName, a.componentName, a.aliases),
    latest_event_type: at.latestEventType,
    source: at.source,
    source_file: at.sourceFile,
    create_time: at.createTime,
    update_time: at.updateTime,
  };
}

/** JSON with object keys sorted, so equal content gives equal text. */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) => {
    if (v === null || typeof v !== 'object' || Array.isArray(v)) return v;
    const sorted: Record<string, unknown> = {};
    for (const k of Object.keys(v as object).sort()) sorted[k] = (v as Record<string, unknown>)[k];
    return sorted;
  });
}

/** 16 hex of what an event says (not which advisory it is on). */
export function eventHash(e: NormalizedEvent): string {
  return eventContentHash(
    canonicalJson({ time: e.time, kind: e.kind, payload: e.payload, author: e.author, reviewer: e.reviewer, state: e.reviewState, issue: e.issue ?? null }),
  );
}

/** The row of an event; `uid` is eventUid(advisory, hash) for imported events, a new child uid for API ones. */
export function eventRow(advisoryUid: string, uid: string, e: NormalizedEvent, now: string, findings?: Uint8Array): AdvisoryEventsTable {
  const names = KIND_NAMES[e.kind];
  return {
    uid,
    advisory_uid: advisoryUid,
    create_time: e.time,
    update_time: now,
    author: e.author,
    reviewer: e.reviewer,
    review_state: ReviewState[e.reviewState.replace(/^REVIEW_STATE_/, '') as keyof typeof ReviewState],
    type: names.filter,
    data: JSON.stringify({ [names.oneofCase]: e.payload }),
    findings: findings ?? null,
    issue: e.issue ?? null,
    content_hash: eventHash(e),
  };
}

/** Replaces the aliases rows of an advisory (its `aliases` column is written by the caller). */
export async function writeAliases(tx: Tx, advisoryUid: string, aliases: readonly string[]): Promise<void> {
  await tx.deleteFrom('advisory_aliases').where('advisory_uid', '=', advisoryUid).execute();
  if (aliases.length > 0) {
    await tx
      .insertInto('advisory_aliases')
      .values(aliases.map((alias) => ({ advisory_uid: advisoryUid, alias })))
      .execute();
  }
}

/**
 * Recomputes advisories.latest_event_type from the newest approved event, and
 * the advisory's range rows with it (what matching reads follows every API
 * write of an event or of the advisory); returns the type.
 */
export async function refreshLatestEventType(tx: Tx, advisoryUid: string): Promise<number> {
  const newest = await tx
    .selectFrom('advisory_events')
    .select('type')
    .where('advisory_uid', '=', advisoryUid)
    .where('review_state', '=', ReviewState.APPROVED)
    .orderBy('create_time', 'desc')
    .orderBy('uid', 'desc')
    .limit(1)
    .executeTakeFirst();
  const type = newest?.type ?? 0;
  await tx.updateTable('advisories').set({ latest_event_type: type }).where('uid', '=', advisoryUid).execute();
  await refreshRanges(tx, [advisoryUid]);
  return type;
}

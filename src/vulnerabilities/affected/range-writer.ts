// The one writer of advisory_ranges and advisory_changes. Every advisory
// write that can change what an advisory matches (an import batch, --prune,
// a withdrawn record) calls it in the same transaction: it derives the rows
// from what is stored (affected-ranges.ts), rewrites those of advisories
// whose rows differ, and appends each (ecosystem, package) key whose rows
// changed to advisory_changes, so the scan side re-matches only inventories
// holding those packages.
import { ReviewState } from '../../gen/berth/vulnerabilities/v2/advisories_pb.js';
import { nowIso } from '../../core/clock.js';
import { statementChunks } from '../../store/statement-chunks.js';
import type { Tx } from '../../store/transact.js';
import type { AdvisoryRangesTable } from '../range-tables.js';
import { type AdvisoryAffected, type LatestEvent, latestEventOf, type RangeRow, rangeRows } from './affected-ranges.js';
import { apkEcosystem } from './ecosystem-keys.js';

const KEY_CHUNK = 500;
const ROW_CHUNK = 1000;

export interface PackageKey {
  ecosystem: string;
  package: string;
}

function keyOf(r: { ecosystem: string; package: string }): string {
  return `${r.ecosystem}\u0000${r.package}`;
}

function sameRows(a: readonly AdvisoryRangesTable[], b: readonly AdvisoryRangesTable[]): boolean {
  if (a.length !== b.length) return false;
  const text = (rows: readonly AdvisoryRangesTable[]) =>
    rows
      .map((r) => [r.position, r.ecosystem, r.package, r.scheme, r.status, r.introduced, r.fixed, r.last_affected].join('\u0000'))
      .sort()
      .join('\u0001');
  return text(a) === text(b);
}

/** The ecosystem and package of an advisory without record data: apk advisories only (the YAML, secdb and OpenVEX apk feeds). */
function fallbackOf(row: { artifact_type: string; artifact_name: string; package_namespace: string }): PackageKey | undefined {
  return row.artifact_type === 'apk' ? { ecosystem: apkEcosystem(row.package_namespace), package: row.artifact_name } : undefined;
}

interface EventFields {
  uid: string;
  create_time: string;
  type: number;
  data: string;
}

function newer(a: EventFields, best: EventFields | undefined): boolean {
  return !best || a.create_time > best.create_time || (a.create_time === best.create_time && a.uid > best.uid);
}

/** An advisory this transaction inserts, with everything its rows derive from (nothing to read back). */
export interface NewAdvisory {
  row: { uid: string; artifact_type: string; artifact_name: string; package_namespace: string };
  affected: AdvisoryAffected | undefined;
  events: Iterable<EventFields & { review_state: number }>;
}

/**
 * Rewrites the range rows of `uids` from their stored advisory, record data
 * and newest approved event, and writes those of `fresh` advisories (just
 * inserted, so without stored rows) from memory; appends the changed keys
 * to advisory_changes (unless `record` is false) and returns them.
 */
export async function refreshRanges(tx: Tx, uids: readonly string[], opts: { record?: boolean; fresh?: readonly NewAdvisory[] } = {}): Promise<PackageKey[]> {
  const changed = new Map<string, PackageKey>();
  const freshRows: AdvisoryRangesTable[] = [];
  for (const a of opts.fresh ?? []) {
    let best: EventFields | undefined;
    for (const e of a.events) if (e.review_state === ReviewState.APPROVED && newer(e, best)) best = e;
    const latest = best ? latestEventOf(best.type, best.data) : undefined;
    rangeRows(a.affected, fallbackOf(a.row), latest).forEach((r, position) => {
      freshRows.push(tableRow(a.row.uid, position, r));
      changed.set(keyOf(r), { ecosystem: r.ecosystem, package: r.package });
    });
  }
  for (const p of statementChunks(freshRows, ROW_CHUNK)) await tx.insertInto('advisory_ranges').values(p).execute();
  for (const part of statementChunks([...new Set(uids)], KEY_CHUNK)) {
    const advisories = await tx
      .selectFrom('advisories')
      .select(['uid', 'artifact_type', 'artifact_name', 'package_namespace'])
      .where('uid', 'in', part)
      .execute();
    const affected = new Map<string, AdvisoryAffected>();
    for (const r of await tx.selectFrom('advisory_affected').select(['advisory_uid', 'data']).where('advisory_uid', 'in', part).execute())
      affected.set(r.advisory_uid, JSON.parse(r.data) as AdvisoryAffected);
    const newest = new Map<string, EventFields>();
    const events = await tx
      .selectFrom('advisory_events')
      .select(['advisory_uid', 'uid', 'create_time', 'type', 'data'])
      .where('advisory_uid', 'in', part)
      .where('review_state', '=', ReviewState.APPROVED)
      .execute();
    for (const e of events) {
      if (newer(e, newest.get(e.advisory_uid))) newest.set(e.advisory_uid, e);
    }
    const stored = new Map<string, AdvisoryRangesTable[]>();
    for (const r of await tx.selectFrom('advisory_ranges').selectAll().where('advisory_uid', 'in', part).execute()) {
      const list = stored.get(r.advisory_uid);
      if (list) list.push(r);
      else stored.set(r.advisory_uid, [r]);
    }

    const rewrite: string[] = [];
    const inserts: AdvisoryRangesTable[] = [];
    const present = new Set(advisories.map((a) => a.uid));
    for (const a of advisories) {
      const e = newest.get(a.uid);
      const latest: LatestEvent | undefined = e ? latestEventOf(e.type, e.data) : undefined;
      const rows = rangeRows(affected.get(a.uid), fallbackOf(a), latest).map((r: RangeRow, position) => tableRow(a.uid, position, r));
      const old = stored.get(a.uid) ?? [];
      if (sameRows(old, rows)) continue;
      rewrite.push(a.uid);
      inserts.push(...rows);
      for (const r of [...old, ...rows]) changed.set(keyOf(r), { ecosystem: r.ecosystem, package: r.package });
    }
    // Rows of advisories no longer stored (deleted by a prune or the API).
    for (const [uid, old] of stored) {
      if (present.has(uid)) continue;
      rewrite.push(uid);
      for (const r of old) changed.set(keyOf(r), { ecosystem: r.ecosystem, package: r.package });
    }
    for (const p of statementChunks(rewrite, KEY_CHUNK)) await tx.deleteFrom('advisory_ranges').where('advisory_uid', 'in', p).execute();
    for (const p of statementChunks(inserts, ROW_CHUNK)) await tx.insertInto('advisory_ranges').values(p).execute();
  }
  const keys = [...changed.values()];
  if (opts.record !== false) await recordChanges(tx, keys);
  return keys;
}

function tableRow(uid: string, position: number, r: RangeRow): AdvisoryRangesTable {
  return {
    advisory_uid: uid,
    position,
    ecosystem: r.ecosystem,
    package: r.package,
    scheme: r.scheme,
    status: r.status,
    introduced: r.introduced,
    fixed: r.fixed,
    last_affected: r.lastAffected,
  };
}

/** Appends keys to advisory_changes. */
export async function recordChanges(tx: Tx, keys: readonly PackageKey[]): Promise<void> {
  const now = nowIso();
  const rows = keys.map((k) => ({ ecosystem: k.ecosystem, package: k.package, change_time: now }));
  for (const p of statementChunks(rows, ROW_CHUNK)) await tx.insertInto('advisory_changes').values(p).execute();
}

/**
 * Compares the version data records gave for advisories (undefined: none)
 * with what is stored; returns the uids whose data changed, and `write`,
 * which stores it once the advisories' rows are in place.
 */
export async function diffAffected(
  tx: Tx,
  data: ReadonlyMap<string, AdvisoryAffected | undefined>,
): Promise<{ changed: string[]; write: () => Promise<void> }> {
  const uids = [...data.keys()];
  const stored = new Map<string, string>();
  for (const part of statementChunks(uids, KEY_CHUNK))
    for (const r of await tx.selectFrom('advisory_affected').select(['advisory_uid', 'data']).where('advisory_uid', 'in', part).execute())
      stored.set(r.advisory_uid, r.data);
  const changed: string[] = [];
  const upserts: { advisory_uid: string; data: string }[] = [];
  const gone: string[] = [];
  for (const [uid, a] of data) {
    const text = a === undefined ? undefined : JSON.stringify(a);
    if (stored.get(uid) === text) continue;
    changed.push(uid);
    if (text === undefined) gone.push(uid);
    else upserts.push({ advisory_uid: uid, data: text });
  }
  const write = async () => {
    for (const p of statementChunks(gone, KEY_CHUNK)) await tx.deleteFrom('advisory_affected').where('advisory_uid', 'in', p).execute();
    for (const p of statementChunks(upserts, ROW_CHUNK))
      await tx
        .insertInto('advisory_affected')
        .values(p)
        .onConflict((oc) => oc.column('advisory_uid').doUpdateSet((eb) => ({ data: eb.ref('excluded.data') })))
        .execute();
  };
  return { changed, write };
}

/** Before advisories are deleted: drops their range rows and record data, and records the keys they held. */
export async function forgetRanges(tx: Tx, uids: readonly string[]): Promise<PackageKey[]> {
  const changed = new Map<string, PackageKey>();
  for (const part of statementChunks([...new Set(uids)], KEY_CHUNK)) {
    for (const r of await tx.selectFrom('advisory_ranges').select(['ecosystem', 'package']).where('advisory_uid', 'in', part).execute())
      changed.set(keyOf(r), { ecosystem: r.ecosystem, package: r.package });
    await tx.deleteFrom('advisory_ranges').where('advisory_uid', 'in', part).execute();
    await tx.deleteFrom('advisory_affected').where('advisory_uid', 'in', part).execute();
  }
  const keys = [...changed.values()];
  await recordChanges(tx, keys);
  return keys;
}

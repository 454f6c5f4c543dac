// The one writer of vuln_reports: a report of an image digest in a repo, in
// the caller's transaction. Storing a report already stored (same repo,
// digest, scanner and report time) changes nothing, so a referrer seen twice
// or a job run again is harmless. Berth's own reports (storeBerthReport) are
// one row per repo and digest, rewritten only when their matches change, their
// matches stored by package in berth_report_parts (berth-report-parts.ts).
// A page of splices (storeBerthSplices) is written in one statement per table.
import { createHash } from 'node:crypto';
import { sql } from 'kysely';
import { STATEMENT_CHUNK, statementChunks } from '../../store/statement-chunks.js';
import type { Tx } from '../../store/transact.js';
import type { BerthReportPart } from './berth-report-parts.js';
import type { ScannerReport } from './scanner-report.js';

export interface StoreScannerReport {
  repoUid: string;
  /** The image digest the report is about. */
  digest: string;
  report: ScannerReport;
  /** The scanner's bytes; absent for Berth's own reports. */
  raw?: Uint8Array;
  /** The referrer manifest the report arrived in. */
  referrerDigest?: string;
  now: string;
}

/** true when the report was added, false when it was stored already. */
export async function storeScannerReport(tx: Tx, r: StoreScannerReport): Promise<boolean> {
  const vulnerabilities = JSON.stringify(r.report.vulnerabilities);
  const rawDigest = `sha256:${createHash('sha256')
    .update(r.raw ?? vulnerabilities)
    .digest('hex')}`;
  const inserted = await tx
    .insertInto('vuln_reports')
    .values({
      repo_uid: r.repoUid,
      digest: r.digest,
      scanner_name: r.report.scanner.name,
      scanner_version: r.report.scanner.version,
      db_build_time: r.report.scanner.dbBuildTime ?? null,
      created_at: r.report.createdAt,
      vulnerabilities,
      raw: r.raw ?? null,
      raw_digest: rawDigest,
      referrer_digest: r.referrerDigest ?? null,
      store_time: r.now,
    })
    .onConflict((oc) => oc.columns(['repo_uid', 'digest', 'scanner_name', 'created_at']).doNothing())
    .returning('id')
    .executeTakeFirst();
  return inserted !== undefined;
}

export interface StoreBerthReport {
  repoUid: string;
  digest: string;
  scannerVersion: string;
  /** When the advisories matched against last changed. */
  dbBuildTime?: string;
  /** The report's parts (berth-report-parts.ts): every package's with matches. A splice uses storeBerthSplices. */
  parts: readonly BerthReportPart[];
  /** The digest of all the report's parts' digests (reportDigest). */
  reportDigest: string;
  now: string;
  /**
   * Write only over this generation (0: only when none is stored): a report
   * computed before another was stored is not written over it (`conflict`).
   */
  expectGeneration?: number;
}

export type StoredBerthReport =
  | { changed: false; generation: number; conflict?: true }
  /** `previousIds`: the match ids the report held before, absent for a first report. */
  | { changed: true; generation: number; previousIds?: string[]; conflict?: undefined };

/** Parts per INSERT: five columns each, far under either database's parameter limit. */
const PARTS_PER_INSERT = 200;

/** The match ids a stored report held: from its parts, or from the text of a row written before parts. */
async function previousIdsOf(tx: Tx, id: number, text: string): Promise<string[]> {
  if (text !== '') {
    try {
      const list = JSON.parse(text) as unknown;
      return Array.isArray(list) ? list.map((v: { id?: unknown }) => String(v?.id)) : [];
    } catch {
      return [];
    }
  }
  const parts = await tx.selectFrom('berth_report_parts').select('matches').where('report_id', '=', id).orderBy('package_index').execute();
  return parts.flatMap((p) => (JSON.parse(p.matches) as [string, string][]).map(([matchId]) => matchId));
}

async function insertParts(tx: Tx, id: number, parts: readonly BerthReportPart[]): Promise<void> {
  for (const chunk of statementChunks(parts, PARTS_PER_INSERT))
    await tx
      .insertInto('berth_report_parts')
      .values(chunk.map((p) => ({ report_id: id, package_index: p.packageIndex, text: p.text, digest: p.digest, matches: p.matches })))
      .execute();
}

/**
 * Berth's own report of a digest in a repo: one row, rewritten in place only
 * when its matches changed (same report digest: nothing is written), each
 * rewrite raising its generation. The matches go to its parts; the row's
 * `vulnerabilities` is '' (berth-report-parts.ts assembles the text).
 */
export async function storeBerthReport(tx: Tx, r: StoreBerthReport): Promise<StoredBerthReport> {
  const old = await tx
    .selectFrom('vuln_reports')
    .select(['id', 'raw_digest', 'generation', 'vulnerabilities'])
    .where('repo_uid', '=', r.repoUid)
    .where('digest', '=', r.digest)
    .where('scanner_name', '=', 'BERTH')
    .executeTakeFirst();
  if (r.expectGeneration !== undefined && (old?.generation ?? 0) !== r.expectGeneration)
    return { changed: false, generation: old?.generation ?? 0, conflict: true };
  if (old && old.raw_digest === r.reportDigest) return { changed: false, generation: old.generation };
  const values = {
    scanner_version: r.scannerVersion,
    db_build_time: r.dbBuildTime ?? null,
    created_at: r.now,
    vulnerabilities: '',
    raw_digest: r.reportDigest,
    store_time: r.now,
  };
  if (old) {
    const id = Number(old.id);
    const previousIds = await previousIdsOf(tx, id, old.vulnerabilities);
    await tx
      .updateTable('vuln_reports')
      .set({ ...values, generation: old.generation + 1 })
      .where('id', '=', old.id)
      .execute();
    await tx.deleteFrom('berth_report_parts').where('report_id', '=', id).execute();
    await insertParts(tx, id, r.parts);
    return { changed: true, generation: old.generation + 1, previousIds };
  }
  const inserted = await tx
    .insertInto('vuln_reports')
    .values({ repo_uid: r.repoUid, digest: r.digest, scanner_name: 'BERTH', raw: null, referrer_digest: null, generation: 1, ...values })
    .returning('id')
    .executeTakeFirstOrThrow();
  await insertParts(tx, Number(inserted.id), r.parts);
  return { changed: true, generation: 1 };
}

/** One report's splice: its row as the splice read it, and the new parts of the packages it replaces. */
export interface BerthSplice {
  /** The report row's id. */
  id: number;
  /** The generation the splice was computed over: another one stored means a conflict, nothing written. */
  expectGeneration: number;
  /** The new parts of the `replaced` packages (those with matches). */
  parts: readonly BerthReportPart[];
  replaced: readonly number[];
  /** The digest of all the report's parts' digests after the splice. */
  reportDigest: string;
}

/** Reports per statement: each adds about five parameters, with its replaced packages. */
const SPLICES_PER_STATEMENT = 100;

/** The splices in groups of at most STATEMENT_CHUNK replaced packages (a report with more is a group of its own). */
function byParameters(splices: readonly BerthSplice[]): BerthSplice[][] {
  const out: BerthSplice[][] = [];
  let group: BerthSplice[] = [];
  let n = 0;
  for (const s of splices) {
    if (group.length > 0 && (n + s.replaced.length > STATEMENT_CHUNK || group.length === SPLICES_PER_STATEMENT)) {
      out.push(group);
      group = [];
      n = 0;
    }
    group.push(s);
    n += s.replaced.length;
  }
  if (group.length > 0) out.push(group);
  return out;
}

/**
 * Writes a page of splices over the generations they were read at, one
 * statement per table rather than several per report (the caller read each
 * row already, so it is not read again): the rows still at their expected
 * generation are rewritten (a compare-and-set in the UPDATE itself, which
 * PostgreSQL re-checks on a row another transaction changed meanwhile), then
 * their new parts written over the replaced ones, and the replaced parts left
 * without matches deleted. Returns the new
 * generation of each report written, by id; one absent was rewritten
 * meanwhile (a conflict), and nothing of it was written.
 */
export async function storeBerthSplices(
  tx: Tx,
  splices: readonly BerthSplice[],
  common: { scannerVersion: string; dbBuildTime?: string; now: string },
): Promise<Map<number, number>> {
  const written = new Map<number, number>();
  for (const chunk of statementChunks(splices, SPLICES_PER_STATEMENT)) {
    const rows = await tx
      .updateTable('vuln_reports')
      .set({
        scanner_version: common.scannerVersion,
        db_build_time: common.dbBuildTime ?? null,
        created_at: common.now,
        vulnerabilities: '',
        raw_digest: sql<string>`case id ${sql.join(
          chunk.map((s) => sql`when ${s.id} then ${s.reportDigest}`),
          sql` `,
        )} end`,
        store_time: common.now,
        generation: sql<number>`generation + 1`,
      })
      .where(({ or, and, eb }) => or(chunk.map((s) => and([eb('id', '=', s.id), eb('generation', '=', s.expectGeneration)]))))
      .returning(['id', 'generation'])
      .execute();
    for (const r of rows) written.set(Number(r.id), Number(r.generation));
  }
  const done = splices.filter((s) => written.has(s.id));
  // A replaced package that still has matches gets its part rewritten in place (the upsert below); only the
  // others' parts are deleted, usually none: one write per changed part instead of a delete and an insert.
  const gone = done
    .map((s) => {
      const kept = new Set(s.parts.map((p) => p.packageIndex));
      return { ...s, replaced: s.replaced.filter((i) => !kept.has(i)) };
    })
    .filter((s) => s.replaced.length > 0);
  for (const chunk of byParameters(gone))
    await tx
      .deleteFrom('berth_report_parts')
      .where(({ or, and, eb }) => or(chunk.map((s) => and([eb('report_id', '=', s.id), eb('package_index', 'in', s.replaced)]))))
      .execute();
  const parts = done.flatMap((s) =>
    s.parts.map((p) => ({ report_id: s.id, package_index: p.packageIndex, text: p.text, digest: p.digest, matches: p.matches })),
  );
  for (const chunk of statementChunks(parts, PARTS_PER_INSERT))
    await tx
      .insertInto('berth_report_parts')
      .values(chunk)
      .onConflict((oc) =>
        oc.columns(['report_id', 'package_index']).doUpdateSet((eb) => ({
          text: eb.ref('excluded.text'),
          digest: eb.ref('excluded.digest'),
          matches: eb.ref('excluded.matches'),
        })),
      )
      .execute();
  return written;
}

// The one writer of vuln_reports: a report of an image digest in a repo, in
// the caller's transaction. Storing a report already stored (same repo,
// digest, scanner and report time) changes nothing, so a referrer seen twice
// or a job run again is harmless. Berth's own reports (storeBerthReport) are
// one row per repo and digest, rewritten only when their matches change.
import { createHash } from 'node:crypto';
import type { Tx } from '../../store/transact.js';
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
  /** The matches as stored (JSON of ReportVulnerability with Berth's additions) and their sha256. */
  text: string;
  textDigest: string;
  now: string;
  /**
   * Write only over this generation (0: only when none is stored): a report
   * computed before another was stored is not written over it (`conflict`).
   */
  expectGeneration?: number;
  /** Whether to read the text being replaced (for `previous`): a caller that knows it already says false. */
  readPrevious?: boolean;
}

export type StoredBerthReport =
  | { changed: false; generation: number; conflict?: true }
  /** `previous`: the matches the report held before (JSON), absent for a first report. */
  | { changed: true; generation: number; previous?: string; conflict?: undefined };

/**
 * Berth's own report of a digest in a repo: one row, rewritten in place only
 * when its matches changed (same text digest: nothing is written), each
 * rewrite raising its generation.
 */
export async function storeBerthReport(tx: Tx, r: StoreBerthReport): Promise<StoredBerthReport> {
  const old = await tx
    .selectFrom('vuln_reports')
    .select(['id', 'raw_digest', 'generation'])
    .$if(r.readPrevious !== false, (q) => q.select('vulnerabilities'))
    .where('repo_uid', '=', r.repoUid)
    .where('digest', '=', r.digest)
    .where('scanner_name', '=', 'BERTH')
    .executeTakeFirst();
  if (r.expectGeneration !== undefined && (old?.generation ?? 0) !== r.expectGeneration)
    return { changed: false, generation: old?.generation ?? 0, conflict: true };
  if (old && old.raw_digest === r.textDigest) return { changed: false, generation: old.generation };
  const values = {
    scanner_version: r.scannerVersion,
    db_build_time: r.dbBuildTime ?? null,
    created_at: r.now,
    vulnerabilities: r.text,
    raw_digest: r.textDigest,
    store_time: r.now,
  };
  if (old) {
    await tx
      .updateTable('vuln_reports')
      .set({ ...values, generation: old.generation + 1 })
      .where('id', '=', old.id)
      .execute();
    return { changed: true, generation: old.generation + 1, ...(old.vulnerabilities === undefined ? {} : { previous: old.vulnerabilities }) };
  }
  await tx
    .insertInto('vuln_reports')
    .values({ repo_uid: r.repoUid, digest: r.digest, scanner_name: 'BERTH', raw: null, referrer_digest: null, generation: 1, ...values })
    .execute();
  return { changed: true, generation: 1 };
}

// The one writer of vuln_reports: a report of an image digest in a repo, in
// the caller's transaction. Storing a report already stored (same repo,
// digest, scanner and report time) changes nothing, so a referrer seen twice
// or a job run again is harmless.
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

// "The report of a digest", as every reader that needs one report per image
// takes it: Berth's own (BERTH) for that repo and digest when Berth found
// packages in the image, else the newest of any scanner. An image Berth could
// not read (no package database it knows) has an empty report of Berth's that
// says nothing about it, so a scanner's report is the better answer there.
import { sql } from 'kysely';
import type { Executor } from '../../store/transact.js';
import { reportText } from './berth-report-parts.js';
import type { ReportVulnerability, ScannerName } from './scanner-report.js';

export interface DigestReport {
  scanner: ScannerName;
  /** When the scanner made it (RFC 3339 UTC, milliseconds). */
  createdAt: string;
  vulnerabilities: ReportVulnerability[];
}

export async function reportOfDigest(ex: Executor, repoUid: string, digest: string): Promise<DigestReport | undefined> {
  const row = await ex
    .selectFrom('vuln_reports as r')
    .leftJoin('scan_inventories as i', 'i.digest', 'r.digest')
    .select(['r.id', 'r.scanner_name', 'r.created_at', 'r.vulnerabilities'])
    .where('r.repo_uid', '=', repoUid)
    .where('r.digest', '=', digest)
    .where((eb) => eb.or([eb('r.scanner_name', '!=', 'BERTH'), eb('i.package_count', '>', 0)]))
    .orderBy(sql`case when r.scanner_name = 'BERTH' then 0 else 1 end`)
    .orderBy('r.created_at', 'desc')
    .orderBy('r.id', 'desc')
    .limit(1)
    .executeTakeFirst();
  if (!row) return undefined;
  return {
    scanner: row.scanner_name as ScannerName,
    createdAt: row.created_at,
    vulnerabilities: JSON.parse(await reportText(ex, row)) as ReportVulnerability[],
  };
}

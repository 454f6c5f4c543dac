// "The report of a digest", as every reader that needs one report per image
// takes it: the newest of Berth's own (BERTH) for that repo and digest, else
// the newest of any scanner.
import { sql } from 'kysely';
import type { Executor } from '../../store/transact.js';
import type { ReportVulnerability, ScannerName } from './scanner-report.js';

export interface DigestReport {
  scanner: ScannerName;
  /** When the scanner made it (RFC 3339 UTC, milliseconds). */
  createdAt: string;
  vulnerabilities: ReportVulnerability[];
}

export async function reportOfDigest(ex: Executor, repoUid: string, digest: string): Promise<DigestReport | undefined> {
  const row = await ex
    .selectFrom('vuln_reports')
    .select(['scanner_name', 'created_at', 'vulnerabilities'])
    .where('repo_uid', '=', repoUid)
    .where('digest', '=', digest)
    .orderBy(sql`case when scanner_name = 'BERTH' then 0 else 1 end`)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirst();
  if (!row) return undefined;
  return { scanner: row.scanner_name as ScannerName, createdAt: row.created_at, vulnerabilities: JSON.parse(row.vulnerabilities) as ReportVulnerability[] };
}

// Vulnerability reports kept per image digest (migration 0026): a scanner's
// report (GRYPE, TRIVY) with its exact bytes, or Berth's own (BERTH, written
// by the matching engine through the same writer), so ListVulnReports reads
// one table. A report belongs to the repo it was pushed to and goes with it.
import type { Generated } from 'kysely';

export interface VulnReportsTable {
  id: Generated<number>;
  repo_uid: string;
  /** The image digest the report is about (the referrer's subject). */
  digest: string;
  scanner_name: string;
  scanner_version: string;
  db_build_time: string | null;
  /** When the scanner made the report (RFC 3339 UTC, milliseconds). */
  created_at: string;
  /** The JSON array of ReportVulnerability. */
  vulnerabilities: string;
  /** The report as the scanner wrote it; null for Berth's own. */
  raw: Uint8Array | null;
  /** sha256 of raw, or of the vulnerabilities text for Berth's own. */
  raw_digest: string;
  /** The referrer manifest the report arrived in, when it did. */
  referrer_digest: string | null;
  /** When Berth stored it. */
  store_time: string;
  /** Berth's own: raised each time the report's matches change (migration 0027); 0 for a scanner's. */
  generation: Generated<number>;
}

declare module '../../store/database.js' {
  interface Database {
    vuln_reports: VulnReportsTable;
  }
}

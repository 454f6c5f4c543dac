// The one form Grype JSON and Trivy JSON reports are read into (reference
// §3.3's mapping), what storeScannerReport keeps beside the raw bytes and
// ListVulnReports serves. Plain data, so the parsers stay pure.

export type ScannerName = 'GRYPE' | 'TRIVY' | 'BERTH';
export type ReportSeverity = 'UNKNOWN' | 'LOW' | 'MEDIUM' | 'HIGH' | 'CRITICAL' | 'NEGLIGIBLE';
export type FixState = 'UNKNOWN' | 'FIXED' | 'NOT_FIXED' | 'WONT_FIX';

export interface ReportVulnerability {
  id: string;
  aliases: string[];
  purls: string[];
  description: string;
  details: string;
  severity: ReportSeverity;
  /** score as text with one decimal ("7.5"), version as the scanner states it ("3.1"). */
  cvss: Array<{ score: string; version: string }>;
  fix: { versions: string[]; state: FixState };
  relatedUrls: string[];
  locations: string[];
  package: { name: string; version: string; purl: string; type: string };
}

export interface ScannerReport {
  scanner: { name: ScannerName; version: string /** RFC 3339 UTC with milliseconds. */; dbBuildTime?: string };
  /** When the scanner made the report: RFC 3339 UTC with milliseconds. */
  createdAt: string;
  /** The image digest the report names, when it names one (sha256:<64 hex>). */
  digest?: string;
  vulnerabilities: ReportVulnerability[];
}

/** A report Berth does not accept: not Grype or Trivy JSON, malformed, or past a bound. */
export class ScannerReportError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ScannerReportError';
  }
}

/** Most matches one report may hold (a large distro image has a few thousand). */
export const MAX_REPORT_MATCHES = 100_000;
/** Most entries of one list inside a match (references, aliases, cvss, fix versions, locations). */
export const MAX_LIST_ENTRIES = 1_000;

const DIGEST = /^sha256:[0-9a-f]{64}$/;

export function isImageDigest(s: string): boolean {
  return DIGEST.test(s);
}

/** A CVSS base score as text with one decimal, or undefined when it is not a score. */
export function cvssScore(v: unknown): string | undefined {
  return typeof v === 'number' && Number.isFinite(v) && v >= 0 && v <= 10 ? v.toFixed(1) : undefined;
}

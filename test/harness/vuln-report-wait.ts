// Polling the v1 GetVulnReport endpoint until Berth's report of an image is
// stored (and says what a test waits for), and the report's matches in a
// compact form to compare.
import type { RestResult } from './api-client.js';
import { waitForScanAnswer } from './scan-images.js';

export const vulnReportPath = (repoUid: string, digest: string) => `/registry/v1/repos/${repoUid}/digests/${digest}/vulnreport`;

export interface ReportMatch {
  vulnerability: {
    id: string;
    displayId: string;
    description?: string;
    severity?: string;
    source: string;
    cvss?: { score: string; version: string }[];
    relatedUrls?: string[];
    advisories?: Record<string, string>;
    relatedVulnerabilities?: { id: string; source: string }[];
  };
  pkg: { id: string; name: string; version: string; license?: string; description?: string; purl: string };
  fix?: { versions?: string[]; state?: string };
}

/** "<package>@<version> <display id> <fix state> <fix versions>" of each match, sorted. */
export function matchSummary(r: RestResult): string[] {
  return ((r.json.vulnerabilityMatches ?? []) as ReportMatch[])
    .map((m) => `${m.pkg.name}@${m.pkg.version} ${m.vulnerability.displayId} ${m.fix?.state ?? 'UNKNOWN'} ${(m.fix?.versions ?? []).join(',')}`.trim())
    .sort();
}

/** The report's generation as a number (int64 is a string in proto3 JSON). */
export const generationOf = (r: RestResult): number => Number(r.json.reportGeneration ?? 0);

/** Polls Berth's report of `digest` (waitForScanAnswer) until `ready` accepts it. */
export function waitForVulnReport(
  base: string,
  token: string,
  repoUid: string,
  digest: string,
  ready: (r: RestResult) => boolean = () => true,
  timeoutMs = 90_000,
): Promise<RestResult> {
  return waitForScanAnswer(base, token, vulnReportPath(repoUid, digest), `the report of ${digest}`, ready, timeoutMs);
}

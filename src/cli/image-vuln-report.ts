// The vulnerability report the CLI shows for an image. By default Berth's own
// (v1 GetVulnReport of the repo and image), else — while it is not ready, or
// not visible to the caller — the newest a scanner made (ListVulnReports by
// digest); --scanner picks one source. For an index's platform image, a
// scanner report of the image itself comes before one imported for the
// index. Every source is shown in one shape, ListVulnReports' VulnReport.
import { ApiCallError, type ApiClient, uidPath } from './api-client.js';
import type { ImageTarget } from './image-target.js';
import { type TenantVulnReport, vulnReportOfTenant } from './tenant-vuln-report.js';

/** A VulnReport of the v1 API in proto3 JSON (zero values are left out). */
export interface VulnReport {
  digest: string;
  scanner?: { name?: string; version?: string; dbBuildTime?: string };
  createdAt?: string;
  vulnerabilities?: ReportVulnerability[];
}

export interface ReportVulnerability {
  id: string;
  aliases?: string[];
  purls?: string[];
  description?: string;
  severity?: string;
  cvss?: { score?: string; version?: string }[];
  fix?: { versions?: string[]; state?: string };
  relatedUrls?: string[];
  locations?: string[];
  package?: { name?: string; version?: string; purl?: string; type?: string };
}

export const SCANNERS = ['berth', 'grype', 'trivy'] as const;
export type ScannerChoice = (typeof SCANNERS)[number];

export type ReportAnswer = { report: VulnReport } | { report?: undefined; why: string };

async function newestScannerReport(client: ApiClient, digest: string, scanner?: 'GRYPE' | 'TRIVY'): Promise<VulnReport | undefined> {
  // Without a scanner, Berth's own rows are left out: they are GetVulnReport's.
  const names = scanner ? [scanner] : (['GRYPE', 'TRIVY'] as const);
  const found: VulnReport[] = [];
  for (const name of names) {
    const { items = [] } = await client.call<{ items?: VulnReport[] }>('GET', 'registry/v1/vuln_reports', { query: { digest, 'scanner.name': name } });
    if (items[0]) found.push(items[0]); // newest first
  }
  return found.sort((a, b) => Date.parse(b.createdAt ?? '') - Date.parse(a.createdAt ?? ''))[0];
}

/** Berth's own report, or why there is none to show: not ready (the scan's state), or not visible. */
async function berthReport(client: ApiClient, target: ImageTarget): Promise<ReportAnswer> {
  try {
    const tenant = await client.call<TenantVulnReport>(
      'GET',
      `registry/v1/repos/${uidPath(target.repoUid)}/digests/${encodeURIComponent(target.imageDigest)}/vulnreport`,
    );
    return { report: vulnReportOfTenant(tenant, target.imageDigest) };
  } catch (err) {
    if (err instanceof ApiCallError && [400, 403, 404, 503].includes(err.status)) return { why: `Berth's report: ${err.message}` };
    throw err;
  }
}

async function scannerReport(client: ApiClient, target: ImageTarget, scanner?: 'GRYPE' | 'TRIVY'): Promise<VulnReport | undefined> {
  const own = await newestScannerReport(client, target.imageDigest, scanner);
  if (own || target.imageDigest === target.digest) return own;
  return newestScannerReport(client, target.digest, scanner);
}

/** The report to show for the target, or why there is none. */
export async function imageReport(client: ApiClient, target: ImageTarget, scanner?: ScannerChoice): Promise<ReportAnswer> {
  if (scanner === 'grype' || scanner === 'trivy') {
    const report = await scannerReport(client, target, scanner === 'grype' ? 'GRYPE' : 'TRIVY');
    return report ? { report } : { why: `no ${scanner === 'grype' ? 'Grype' : 'Trivy'} report was imported for it` };
  }
  const own = await berthReport(client, target);
  if (own.report || scanner === 'berth') return own;
  const report = await scannerReport(client, target);
  return report ? { report } : { why: `${own.why}; and no scanner report was imported for it` };
}

/** Why there is nothing to show, with what to do about it. */
export function noReportMessage(target: ImageTarget, why: string): string {
  const image = target.imageDigest === target.digest ? target.imageDigest : `${target.imageDigest} (${target.platform} of ${target.digest})`;
  return [
    `no vulnerability report for ${target.label} (${image}) to show: ${why}`,
    "Berth reports an image once its scan is done; `berth images sbom` shows the scan's state:",
    `  berth images sbom ${target.label}`,
    "A scanner's report (Grype or Trivy JSON) can be imported:",
    `  berth images scans import FILE --image ${target.label}`,
  ].join('\n');
}

/** "GRYPE 0.79.3 report of sha256:… made 2025-…". */
export function reportSource(report: VulnReport): string {
  const s = report.scanner ?? {};
  return `${s.name ?? 'UNKNOWN'}${s.version ? ` ${s.version}` : ''} report of ${report.digest} made ${report.createdAt ?? '(unknown time)'}`;
}

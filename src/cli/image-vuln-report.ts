// The vulnerability report the CLI shows for an image: over ListVulnReports,
// Berth's own (scanner BERTH) when there is one, else the newest a scanner
// made (Grype, Trivy). For an index's platform image, a report of the image
// itself comes before one imported for the index.
import type { ApiClient } from './api-client.js';
import type { ImageTarget } from './image-target.js';

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

async function reportsOf(client: ApiClient, digest: string, scanner?: string): Promise<VulnReport[]> {
  const { items = [] } = await client.call<{ items?: VulnReport[] }>('GET', 'registry/v1/vuln_reports', {
    query: { digest, 'scanner.name': scanner },
  });
  return items;
}

/** The report to show for `digest`, or undefined when it has none yet. */
export async function latestReport(client: ApiClient, digest: string): Promise<VulnReport | undefined> {
  const [own] = await reportsOf(client, digest, 'BERTH');
  if (own) return own;
  const [newest] = await reportsOf(client, digest); // newest first
  return newest;
}

/** The report of the target's platform image, else of the digest it names (an index). */
export async function imageReport(client: ApiClient, target: ImageTarget): Promise<VulnReport | undefined> {
  const report = await latestReport(client, target.imageDigest);
  if (report || target.imageDigest === target.digest) return report;
  return latestReport(client, target.digest);
}

/** Why there is nothing to show, with what to do about it. */
export function noReportMessage(target: ImageTarget): string {
  const image = target.imageDigest === target.digest ? target.imageDigest : `${target.imageDigest} (${target.platform} of ${target.digest})`;
  return [
    `no vulnerability report for ${target.label} yet: ${image} has none that you can see.`,
    "Berth reports an image once its scan is done; `berth images sbom` shows the scan's state:",
    `  berth images sbom ${target.label}`,
    "A scanner's report (Grype or Trivy JSON) can be imported meanwhile:",
    `  berth images scans import FILE --image ${target.label}`,
  ].join('\n');
}

/** "GRYPE 0.79.3 report of sha256:… made 2025-…". */
export function reportSource(report: VulnReport): string {
  const s = report.scanner ?? {};
  return `${s.name ?? 'UNKNOWN'}${s.version ? ` ${s.version}` : ''} report of ${report.digest} made ${report.createdAt ?? '(unknown time)'}`;
}

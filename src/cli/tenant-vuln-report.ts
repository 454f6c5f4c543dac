// Berth's own report as v1 GetVulnReport answers it (berth.tenant.v1.VulnReport
// in proto3 JSON) → the shape the CLI shows every report in (ListVulnReports'
// VulnReport): a match's shown id (displayId: its CVE) is the id, the
// deciding advisory's id and the related ids are aliases.
import type { ReportVulnerability, VulnReport } from './image-vuln-report.js';

export interface TenantVulnReport {
  id?: string;
  vulnerabilityDbLastBuildTime?: string;
  vulnerabilityMatches?: Array<{
    vulnerability?: {
      id?: string;
      displayId?: string;
      description?: string;
      severity?: string;
      cvss?: { score?: string; version?: string }[];
      relatedUrls?: string[];
      relatedVulnerabilities?: { id?: string }[];
    };
    pkg?: { name?: string; version?: string; purl?: string };
    fix?: { versions?: string[]; state?: string };
  }>;
  scanner?: { name?: string; version?: string };
  lastSeen?: string;
}

export function vulnReportOfTenant(t: TenantVulnReport, digest: string): VulnReport {
  const vulnerabilities = (t.vulnerabilityMatches ?? []).map((m): ReportVulnerability => {
    const v = m.vulnerability ?? {};
    const id = v.displayId || v.id || '';
    const aliases = [...new Set([v.id ?? '', ...(v.relatedVulnerabilities ?? []).map((r) => r.id ?? '')])].filter((a) => a !== '' && a !== id);
    const pkg = m.pkg ?? {};
    return {
      id,
      aliases,
      purls: pkg.purl ? [pkg.purl] : [],
      description: v.description ?? '',
      severity: v.severity ?? 'UNKNOWN',
      cvss: v.cvss ?? [],
      fix: { versions: m.fix?.versions ?? [], state: m.fix?.state ?? 'UNKNOWN' },
      relatedUrls: v.relatedUrls ?? [],
      package: { name: pkg.name ?? '', version: pkg.version ?? '', purl: pkg.purl ?? '' },
    };
  });
  return {
    digest,
    scanner: {
      name: 'BERTH',
      version: t.scanner?.version ?? '',
      ...(t.vulnerabilityDbLastBuildTime ? { dbBuildTime: t.vulnerabilityDbLastBuildTime } : {}),
    },
    ...(t.lastSeen ? { createdAt: t.lastSeen } : {}),
    vulnerabilities,
  };
}

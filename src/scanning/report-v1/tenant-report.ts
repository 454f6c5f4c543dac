// Berth's stored report rows → berth.tenant.v1.VulnReport (reference §3.1):
// each stored match (reports/berth-report.ts) as a VulnerabilityMatch; an
// index's platforms' rows merged, each (vulnerability, package) once.
import { create } from '@bufbuild/protobuf';
import { isoToTimestamp } from '../../core/clock.js';
import {
  Fix_State,
  type VulnReport,
  VulnReportSchema,
  type VulnerabilityMatch,
  VulnerabilityMatchSchema,
  Vulnerability_Severity,
} from '../../gen/berth/tenant/v1/vuln_report_pb.js';
import type { BerthVulnerability } from '../reports/berth-report.js';
import type { ReportSeverity } from '../scanner-reports/scanner-report.js';

export interface BerthReportRow {
  digest: string;
  scanner_version: string;
  created_at: string;
  generation: number;
  vulnerabilities: string;
}

/** The tenant message has no NEGLIGIBLE: a score of 0 is shown as LOW (reference §3.1's mapping). */
const SEVERITY: Readonly<Record<ReportSeverity, Vulnerability_Severity>> = {
  UNKNOWN: Vulnerability_Severity.UNKNOWN,
  NEGLIGIBLE: Vulnerability_Severity.LOW,
  LOW: Vulnerability_Severity.LOW,
  MEDIUM: Vulnerability_Severity.MEDIUM,
  HIGH: Vulnerability_Severity.HIGH,
  CRITICAL: Vulnerability_Severity.CRITICAL,
};

function matchOf(v: BerthVulnerability): VulnerabilityMatch {
  const b = v.berth;
  return create(VulnerabilityMatchSchema, {
    vulnerability: {
      id: b.advisoryId,
      displayId: v.id,
      description: v.description,
      severity: SEVERITY[v.severity] ?? Vulnerability_Severity.UNKNOWN,
      source: b.source,
      cvss: v.cvss,
      cpeUri: [],
      relatedUrls: v.relatedUrls,
      advisories: { [b.advisoryId]: `/vulnerabilities/v2/advisories/${b.advisoryUid}` },
      relatedVulnerabilities: v.aliases.map((id) => ({ id, source: b.source })),
    },
    pkg: { id: b.pkg.id, name: v.package.name, version: v.package.version, license: b.pkg.license, description: b.pkg.description, purl: v.package.purl },
    fix: { versions: v.fix.versions, state: Fix_State[v.fix.state] ?? Fix_State.UNKNOWN },
  });
}

export interface TenantReportOptions {
  id: string;
  /** When the advisories matched against last changed. */
  dbBuildTime?: string;
}

export function tenantReport(rows: readonly BerthReportRow[], opts: TenantReportOptions): VulnReport {
  const seen = new Set<string>();
  const stored: BerthVulnerability[] = [];
  for (const row of rows)
    for (const v of JSON.parse(row.vulnerabilities) as BerthVulnerability[]) {
      const key = `${v.id}\u0000${v.berth.pkg.id}`;
      if (seen.has(key)) continue;
      seen.add(key);
      stored.push(v);
    }
  const lastSeen = rows
    .map((r) => r.created_at)
    .sort()
    .at(-1);
  const version =
    rows
      .map((r) => r.scanner_version)
      .sort()
      .at(-1) ?? '';
  return create(VulnReportSchema, {
    id: opts.id,
    ...(opts.dbBuildTime === undefined ? {} : { vulnerabilityDbLastBuildTime: isoToTimestamp(opts.dbBuildTime) }),
    vulnerabilityMatches: stored.map(matchOf),
    scanner: { name: 'berth', version },
    reportGeneration: rows.reduce((n, r) => n + BigInt(r.generation), 0n),
    // One platform: the stored text itself; an index: its platforms' matches merged.
    rawVulnReport: new TextEncoder().encode(rows.length === 1 ? rows[0].vulnerabilities : JSON.stringify(stored)),
    ...(lastSeen === undefined ? {} : { lastSeen: isoToTimestamp(lastSeen) }),
  });
}

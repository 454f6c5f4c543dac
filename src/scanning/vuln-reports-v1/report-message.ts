// A vuln_reports row → berth.registry.v1.VulnReport.
import { create } from '@bufbuild/protobuf';
import { isoToTimestamp } from '../../core/clock.js';
import { Fix_State, Scanner_Name, type VulnReport, VulnReportSchema, Vulnerability_Severity } from '../../gen/berth/registry/v1/vulnerabilities_pb.js';
import type { ReportVulnerability, ScannerName } from '../scanner-reports/scanner-report.js';

export interface ReportRow {
  digest: string;
  scanner_name: string;
  scanner_version: string;
  db_build_time: string | null;
  created_at: string;
  vulnerabilities: string;
}

export function scannerNameOf(name: Scanner_Name): ScannerName | undefined {
  return name === Scanner_Name.UNKNOWN ? undefined : (Scanner_Name[name] as ScannerName);
}

export function reportFromRow(row: ReportRow): VulnReport {
  const vulns = JSON.parse(row.vulnerabilities) as ReportVulnerability[];
  return create(VulnReportSchema, {
    digest: row.digest,
    scanner: {
      name: Scanner_Name[row.scanner_name as ScannerName] ?? Scanner_Name.UNKNOWN,
      version: row.scanner_version,
      dbBuildTime: row.db_build_time ? isoToTimestamp(row.db_build_time) : undefined,
    },
    createdAt: isoToTimestamp(row.created_at),
    vulnerabilities: vulns.map((v) => ({
      id: v.id,
      aliases: v.aliases,
      purls: v.purls,
      description: v.description,
      details: v.details,
      severity: Vulnerability_Severity[v.severity] ?? Vulnerability_Severity.UNKNOWN,
      cvss: v.cvss,
      fix: { versions: v.fix.versions, state: Fix_State[v.fix.state] ?? Fix_State.UNKNOWN },
      relatedUrls: v.relatedUrls,
      locations: v.locations,
      package: v.package,
    })),
  });
}

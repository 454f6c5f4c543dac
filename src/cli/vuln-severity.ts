// Severities as the v1 reports name them, most severe first, and the
// --severity LEVEL[,LEVEL] filter. proto3 JSON leaves out the zero value, so
// an absent severity is UNKNOWN and an absent fix state UNKNOWN.
import type { ReportVulnerability } from './image-vuln-report.js';

export const SEVERITIES = ['CRITICAL', 'HIGH', 'MEDIUM', 'LOW', 'NEGLIGIBLE', 'UNKNOWN'] as const;
export type Severity = (typeof SEVERITIES)[number];

export function severityOf(v: ReportVulnerability): Severity {
  return (SEVERITIES as readonly string[]).includes(v.severity ?? '') ? (v.severity as Severity) : 'UNKNOWN';
}

export function severityRank(v: ReportVulnerability): number {
  return SEVERITIES.indexOf(severityOf(v));
}

/** "critical,high" → the set; an unknown level fails with the ones there are. */
export function parseSeverityFilter(text: string): Set<Severity> {
  const out = new Set<Severity>();
  for (const part of text.split(',')) {
    const level = part.trim().toUpperCase();
    if (!(SEVERITIES as readonly string[]).includes(level)) {
      throw new Error(`--severity ${JSON.stringify(part.trim().slice(0, 40))} is not one of ${SEVERITIES.map((s) => s.toLowerCase()).join(', ')}`);
    }
    out.add(level as Severity);
  }
  return out;
}

/** fixed, not-fixed, wont-fix, unknown (Grype's words). */
export function fixStateText(v: ReportVulnerability): string {
  switch (v.fix?.state) {
    case 'FIXED':
      return 'fixed';
    case 'NOT_FIXED':
      return 'not-fixed';
    case 'WONT_FIX':
      return 'wont-fix';
    default:
      return 'unknown';
  }
}

/** Most severe first, then by id and package. */
export function bySeverity(a: ReportVulnerability, b: ReportVulnerability): number {
  return (
    severityRank(a) - severityRank(b) ||
    a.id.localeCompare(b.id) ||
    (a.package?.name ?? '').localeCompare(b.package?.name ?? '') ||
    (a.package?.version ?? '').localeCompare(b.package?.version ?? '')
  );
}

/** "3 vulnerabilities: 1 critical, 2 high". */
export function severityCounts(vulns: readonly ReportVulnerability[]): string {
  const counts = SEVERITIES.map((s) => [s, vulns.filter((v) => severityOf(v) === s).length] as const).filter(([, n]) => n > 0);
  const noun = vulns.length === 1 ? 'vulnerability' : 'vulnerabilities';
  if (counts.length === 0) return `0 ${noun}`;
  return `${vulns.length} ${noun}: ${counts.map(([s, n]) => `${n} ${s.toLowerCase()}`).join(', ')}`;
}

// A report's vulnerabilities as the count reports list them: one id each
// (the CVE id when the scanner gives one, as id or alias, so a GHSA and the
// CVE it names count once), at the highest severity any match gives it.
import type { ReportSeverity, ReportVulnerability } from '../scanner-reports/scanner-report.js';

const RANK: Readonly<Record<ReportSeverity, number>> = { UNKNOWN: 0, NEGLIGIBLE: 1, LOW: 2, MEDIUM: 3, HIGH: 4, CRITICAL: 5 };

export function countedId(v: ReportVulnerability): string {
  if (v.id.startsWith('CVE-')) return v.id;
  return v.aliases.find((a) => a.startsWith('CVE-')) ?? v.id;
}

/** Sets id → severity in `into` unless it holds a higher severity for the id already. */
export function keepHigher(into: Map<string, ReportSeverity>, id: string, severity: ReportSeverity): void {
  const had = into.get(id);
  if (had === undefined || RANK[severity] > RANK[had]) into.set(id, severity);
}

/** Adds each vulnerability to `into` (id → severity), keeping the higher severity of an id seen twice. */
export function addSeverityIds(into: Map<string, ReportSeverity>, vulns: readonly ReportVulnerability[]): Map<string, ReportSeverity> {
  for (const v of vulns) keepHigher(into, countedId(v), v.severity);
  return into;
}

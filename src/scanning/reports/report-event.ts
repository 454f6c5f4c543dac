// The event of a changed report: <namespace>.registry.vulnreport.updated.v1,
// written with the report in the same transaction (src/events/outbox.ts), so
// a report never changes without it. Like the registry's access events it
// belongs to the repo's group, its subject is the repo, and its body is
// snake_case: the digest, the new generation, the counts by severity, and
// which vulnerability ids are new or gone since the last generation (at most
// MAX_DELTA_IDS of each, with their full counts).
import { parentOf } from '../../core/uidp.js';
import type { NewEvent } from '../../events/outbox.js';
import type { ReportVulnerability } from '../scanner-reports/scanner-report.js';
import { severityCounts } from './berth-report.js';

export const VULN_REPORT_UPDATED = 'registry.vulnreport.updated.v1';
export const VULN_REPORT_BODY_TYPE = 'berth.registry.VulnReportUpdated';
export const MAX_DELTA_IDS = 100;

export interface ReportChange {
  repoUid: string;
  digest: string;
  generation: number;
  scannerVersion: string;
  /** The report's matches now. */
  matches: readonly Pick<ReportVulnerability, 'id' | 'severity'>[];
  /** The ids of the matches before; absent for a first report. */
  previousIds?: readonly string[];
}

export function vulnReportEvent(c: ReportChange): NewEvent {
  const group = parentOf(c.repoUid);
  const now = new Set(c.matches.map((v) => v.id));
  const before = new Set(c.previousIds ?? []);
  const added = [...now].filter((id) => !before.has(id)).sort();
  const fixed = [...before].filter((id) => !now.has(id)).sort();
  const counts = severityCounts(c.matches);
  return {
    type: VULN_REPORT_UPDATED,
    audience: 'customer',
    group,
    subject: c.repoUid,
    body: {
      repo_id: c.repoUid,
      digest: c.digest,
      scanner: { name: 'BERTH', version: c.scannerVersion },
      generation: c.generation,
      matches: c.matches.length,
      counts: {
        critical: counts.CRITICAL,
        high: counts.HIGH,
        medium: counts.MEDIUM,
        low: counts.LOW,
        negligible: counts.NEGLIGIBLE,
        unknown: counts.UNKNOWN,
      },
      new_ids: added.slice(0, MAX_DELTA_IDS),
      new_count: added.length,
      fixed_ids: fixed.slice(0, MAX_DELTA_IDS),
      fixed_count: fixed.length,
    },
    bodyType: VULN_REPORT_BODY_TYPE,
    extensions: { group },
    // Derived by Berth from what was pushed and imported, both audited: no entry of its own.
    audit: false,
  };
}

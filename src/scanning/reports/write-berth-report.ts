// Writes one of Berth's reports and, when its matches changed, its event, in
// the caller's transaction: what a full re-match (rematch-job.ts) and a
// splice after an advisory change (report-splice.ts) both do with a report
// they computed.
import { emitEvent } from '../../events/outbox.js';
import type { Tx } from '../../store/transact.js';
import type { BerthReportPart } from '../scanner-reports/berth-report-parts.js';
import type { ReportVulnerability } from '../scanner-reports/scanner-report.js';
import { type StoredBerthReport, storeBerthReport } from '../scanner-reports/store-scanner-report.js';
import { MATCHER_VERSION } from './berth-report.js';
import { vulnReportEvent } from './report-event.js';

export interface BerthReportWrite {
  repoUid: string;
  digest: string;
  body: {
    /** Every part of the report, or with `replaced`, the new parts of those packages. */
    parts: readonly BerthReportPart[];
    replaced?: readonly number[];
    /** The report's digest after the write (berth-report-parts.ts reportDigest). */
    digest: string;
    /** The whole report's matches after the write, for its event. */
    matches: readonly Pick<ReportVulnerability, 'id' | 'severity'>[];
  };
  /** When the advisories matched against last changed. */
  dbBuildTime?: string;
  now: string;
  /** The generation the report was computed over (0: none stored); another one stored means a conflict, nothing written. */
  expectGeneration: number;
  /** The ids the report held at that generation, when the caller read them (else they are read from the stored row). */
  previousIds?: readonly string[];
}

export async function writeBerthReport(tx: Tx, w: BerthReportWrite): Promise<StoredBerthReport> {
  const stored = await storeBerthReport(tx, {
    repoUid: w.repoUid,
    digest: w.digest,
    scannerVersion: MATCHER_VERSION,
    ...(w.dbBuildTime === undefined ? {} : { dbBuildTime: w.dbBuildTime }),
    parts: w.body.parts,
    ...(w.body.replaced === undefined ? {} : { replaced: w.body.replaced }),
    reportDigest: w.body.digest,
    now: w.now,
    expectGeneration: w.expectGeneration,
    readPrevious: w.previousIds === undefined,
  });
  if (stored.changed) {
    const previousIds = w.previousIds ?? stored.previousIds;
    await emitEvent(
      tx,
      vulnReportEvent({
        repoUid: w.repoUid,
        digest: w.digest,
        generation: stored.generation,
        scannerVersion: MATCHER_VERSION,
        matches: w.body.matches,
        ...(previousIds === undefined ? {} : { previousIds }),
      }),
    );
  }
  return stored;
}

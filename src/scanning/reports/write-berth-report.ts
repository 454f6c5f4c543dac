// Writes one of Berth's reports and, when its matches changed, its event, in
// the caller's transaction: what a full re-match (rematch-job.ts) and a
// splice after an advisory change (report-splice.ts) both do with a report
// they computed; a splice writes a page of reports at once (writeBerthSplices).
import { emitEvent, emitEvents, type NewEvent } from '../../events/outbox.js';
import type { Tx } from '../../store/transact.js';
import type { BerthReportPart } from '../scanner-reports/berth-report-parts.js';
import type { ReportVulnerability } from '../scanner-reports/scanner-report.js';
import { type StoredBerthReport, storeBerthReport, storeBerthSplices } from '../scanner-reports/store-scanner-report.js';
import { MATCHER_VERSION } from './berth-report.js';
import { vulnReportEvent } from './report-event.js';

export interface BerthReportWrite {
  repoUid: string;
  digest: string;
  body: {
    /** Every part of the report (a splice: the new parts of the `replaced` packages). */
    parts: readonly BerthReportPart[];
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
}

export async function writeBerthReport(tx: Tx, w: BerthReportWrite): Promise<StoredBerthReport> {
  const stored = await storeBerthReport(tx, {
    repoUid: w.repoUid,
    digest: w.digest,
    scannerVersion: MATCHER_VERSION,
    ...(w.dbBuildTime === undefined ? {} : { dbBuildTime: w.dbBuildTime }),
    parts: w.body.parts,
    reportDigest: w.body.digest,
    now: w.now,
    expectGeneration: w.expectGeneration,
  });
  if (stored.changed) {
    const previousIds = stored.previousIds;
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

/** A splice of one report (report-splice.ts): the row it read, the ids it held, its new parts. */
export interface BerthSpliceWrite {
  /** The report row's id. */
  reportId: number;
  repoUid: string;
  digest: string;
  body: BerthReportWrite['body'] & { replaced: readonly number[] };
  expectGeneration: number;
  previousIds: readonly string[];
}

/** Writes a page of splices and the events of those written; returns the digests of the reports rewritten meanwhile (conflicts). */
export async function writeBerthSplices(
  tx: Tx,
  writes: readonly BerthSpliceWrite[],
  common: { dbBuildTime?: string; now: string },
): Promise<{ written: number; conflicts: string[] }> {
  const generations = await storeBerthSplices(
    tx,
    writes.map((w) => ({ id: w.reportId, expectGeneration: w.expectGeneration, parts: w.body.parts, replaced: w.body.replaced, reportDigest: w.body.digest })),
    { scannerVersion: MATCHER_VERSION, now: common.now, ...(common.dbBuildTime === undefined ? {} : { dbBuildTime: common.dbBuildTime }) },
  );
  const conflicts: string[] = [];
  const events: NewEvent[] = [];
  for (const w of writes) {
    const generation = generations.get(w.reportId);
    if (generation === undefined) conflicts.push(w.digest);
    else
      events.push(
        vulnReportEvent({
          repoUid: w.repoUid,
          digest: w.digest,
          generation,
          scannerVersion: MATCHER_VERSION,
          matches: w.body.matches,
          previousIds: w.previousIds,
        }),
      );
  }
  await emitEvents(tx, events);
  return { written: generations.size, conflicts };
}

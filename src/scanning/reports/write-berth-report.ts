// Writes one of Berth's reports and, when its matches changed, its event, in
// the caller's transaction: what a full re-match (rematch-job.ts) and a
// splice after an advisory change (report-splice.ts) both do with a report
// they computed.
import { emitEvent } from '../../events/outbox.js';
import type { Tx } from '../../store/transact.js';
import { type StoredBerthReport, storeBerthReport } from '../scanner-reports/store-scanner-report.js';
import { type BerthVulnerability, MATCHER_VERSION } from './berth-report.js';
import { vulnReportEvent } from './report-event.js';

export interface BerthReportWrite {
  repoUid: string;
  digest: string;
  body: { vulnerabilities: BerthVulnerability[]; text: string; digest: string };
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
    text: w.body.text,
    textDigest: w.body.digest,
    now: w.now,
    expectGeneration: w.expectGeneration,
  });
  if (stored.changed)
    await emitEvent(
      tx,
      vulnReportEvent({
        repoUid: w.repoUid,
        digest: w.digest,
        generation: stored.generation,
        scannerVersion: MATCHER_VERSION,
        vulnerabilities: w.body.vulnerabilities,
        ...(stored.previous === undefined ? {} : { previous: stored.previous }),
      }),
    );
  return stored;
}

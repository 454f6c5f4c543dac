// Every kind of scan job Berth runs, by name: what a push triggers (the
// observer and the backfill ask each kind) and how each runs (the worker).
// Adding a kind — scanner reports pushed as referrers, re-matching an
// inventory after an advisory import — is one entry here.
import { INVENTORY_JOB, inventoryJob } from './inventory-job.js';
import type { JobKind } from './job-kind.js';
import { SBOM_REFERRER_JOB, sbomReferrerJob } from './sbom-referrer-job.js';
import { SCANNER_REPORT_JOB, scannerReportJob } from '../scanner-reports/scanner-report-job.js';
import { REMATCH_JOB, rematchJob } from '../reports/rematch-job.js';

export function scanJobKinds(): Map<string, JobKind> {
  return new Map<string, JobKind>([
    [INVENTORY_JOB, inventoryJob],
    [SBOM_REFERRER_JOB, sbomReferrerJob],
    [SCANNER_REPORT_JOB, scannerReportJob],
    [REMATCH_JOB, rematchJob],
  ]);
}

// The states of a scan job row (scan-job-tables.ts) and its retry bounds.

export const JOB_PENDING = 'pending';
export const JOB_RUNNING = 'running';
export const JOB_DONE = 'done';
export const JOB_FAILED = 'failed';

export type JobStatus = typeof JOB_PENDING | typeof JOB_RUNNING | typeof JOB_DONE | typeof JOB_FAILED;

/** Runs of one job before it is left failed: a hostile image that kills or stalls every run stops here. */
export const MAX_ATTEMPTS = 5;

/** Longer than a heartbeat gap: a running job whose lease ran out is retaken (its process died). */
export const LEASE_MS = 15_000;
/** How often a running job renews its lease and writes its progress. */
export const HEARTBEAT_MS = 2_000;

/** Wait before retry n (1-based): 10 s, 40 s, 160 s… capped at 30 min. */
export function retryDelayMs(attempt: number): number {
  return Math.min(30 * 60_000, 10_000 * 4 ** Math.max(0, attempt - 1));
}

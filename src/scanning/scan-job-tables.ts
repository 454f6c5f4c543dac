// The scan job queue (src/scanning/jobs/): one row per kind and target digest,
// drained by the scan worker of every instance. A row is never deleted when
// done: it records the outcome and the progress of the last run, and its
// presence is what makes enqueueing idempotent.

export interface ScanJobsTable {
  /** What to do: 'inventory', 'sbom-referrer', or a kind another part registers (jobs/job-kinds.ts). */
  kind: string;
  /** The manifest the job is about (for 'sbom-referrer', the referrer). */
  digest: string;
  /** 'pending', 'running', 'done' or 'failed' (jobs/job-states.ts). */
  status: string;
  /** Bumped by every enqueue: a run finishes the job only if no enqueue came after its claim. */
  generation: number;
  /** Runs started since the last enqueue, counted when claimed. */
  attempts: number;
  /**
   * Pending: when it may be claimed. Running: its lease's end, renewed while
   * the run makes progress, so a run whose process died is claimed again.
   */
  next_attempt_time: string;
  /** The claim holding a running job; '' when none. */
  lease_owner: string;
  /** Why the last run failed; '' after a success. */
  error: string;
  /** Progress of the current or last run. */
  layers_done: number;
  layers_total: number;
  bytes_read: number;
  create_time: string;
  update_time: string;
  /** When the last run ended (done or failed); '' before. */
  finish_time: string;
}

declare module '../store/database.js' {
  interface Database {
    scan_jobs: ScanJobsTable;
  }
}

// What a kind of scan job is: when a pushed manifest calls for it, and how it
// runs. The kinds Berth runs are listed in job-kinds.ts; adding one (scanner
// reports, re-matching) is one entry there.
import type { Logger } from 'pino';
import type { BlobStore } from '../../registry/blobs/blob-store.js';
import type { CreatedManifest } from '../../registry/content/manifest-observer.js';
import type { Store } from '../../store/store.js';
import type { Tx } from '../../store/transact.js';
import type { JobProgress } from './job-progress.js';

/** The job being run. */
export interface RunningJob {
  kind: string;
  digest: string;
  generation: number;
  /** This run's number since the job was queued (1 for the first). */
  attempt: number;
}

export interface JobContext {
  store: Store;
  blobs: BlobStore;
  logger: Logger;
  job: RunningJob;
  /** Layers done / total and bytes read, written with the lease's heartbeat. */
  progress: JobProgress;
  /** Aborted when the worker stops or the job was taken from this run (re-queued, lease lost). */
  signal: AbortSignal;
}

/**
 * What a run produced: `write` runs in the transaction that marks the job
 * done, and only if this run still holds the job, so a result never lands
 * after a newer enqueue or another instance's run took over.
 */
export interface JobOutcome {
  write?(tx: Tx): Promise<void>;
}

export interface JobKind {
  /** The jobs (kind, digest) a manifest just created calls for, if any; runs in the push's transaction. */
  triggeredBy?(manifest: CreatedManifest): string[];
  /**
   * A new manifest queues the job again even when it ran for that digest
   * before: what it does depends on which repos hold the digest (a report per repo).
   */
  requeue?: boolean;
  /** Reads what it needs (outside any transaction) and returns what to write. A throw is a failed run, retried with backoff. */
  run(ctx: JobContext): Promise<JobOutcome>;
}

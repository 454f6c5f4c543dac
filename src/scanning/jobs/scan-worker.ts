// The scan worker: a background worker of the runtime, on every instance,
// draining scan_jobs (job-claims.ts) a few at a time. Each run has a
// heartbeat that renews its lease and writes its progress; when the lease is
// lost (the job was queued again, or another instance retook it after a
// stall) the run is aborted and writes nothing. At start it runs the backfill
// (backfill.ts) so images stored before scanning existed are inventoried.
import { randomUUID } from 'node:crypto';
import type { Logger } from 'pino';
import type { BlobStore } from '../../registry/blobs/blob-store.js';
import type { BackgroundWorker } from '../../runtime/runtime.js';
import type { Store } from '../../store/store.js';
import { backfillScanJobs } from './backfill.js';
import { claimJobs, failJob, finishJob, jobsDue, releaseJob, renewJob } from './job-claims.js';
import type { JobKind, RunningJob } from './job-kind.js';
import { JobProgress } from './job-progress.js';
import { HEARTBEAT_MS } from './job-states.js';
import { onScanWork } from './scan-signal.js';

export interface ScanWorkerOptions {
  store: Store;
  blobs: BlobStore;
  logger: Logger;
  kinds: ReadonlyMap<string, JobKind>;
  /** Jobs run at once by this process. */
  slots?: number;
  /** Poll interval when idle (other instances' enqueues are found this way). */
  pollMs?: number;
}

export class ScanWorker implements BackgroundWorker {
  readonly name = 'scan-worker';
  private readonly owner = `scan-${randomUUID()}`;
  private readonly stopping = new AbortController();
  private readonly running = new Set<Promise<void>>();
  private loop?: Promise<void>;
  private wake?: () => void;
  private offSignal?: () => void;

  constructor(private readonly opts: ScanWorkerOptions) {}

  start(): void {
    this.offSignal = onScanWork(() => this.wake?.());
    this.loop = this.run();
  }

  async stop(): Promise<void> {
    this.stopping.abort();
    this.offSignal?.();
    this.wake?.();
    await this.loop;
    await Promise.allSettled([...this.running]);
  }

  private async run(): Promise<void> {
    const { store, logger } = this.opts;
    try {
      await backfillScanJobs(store, this.opts.kinds, this.stopping.signal);
    } catch (err) {
      if (!this.stopping.signal.aborted) logger.error({ err }, 'scan backfill failed; it runs again at the next start');
    }
    const slots = this.opts.slots ?? 2;
    const kinds = [...this.opts.kinds.keys()];
    while (!this.stopping.signal.aborted) {
      let claimed: RunningJob[] = [];
      try {
        const free = slots - this.running.size;
        if (free > 0 && (await jobsDue(store, Date.now()))) claimed = await claimJobs(store, this.owner, kinds, free, Date.now());
      } catch (err) {
        if (!this.stopping.signal.aborted) logger.error({ err }, 'scan job claim failed');
      }
      for (const job of claimed) {
        const p = this.runJob(job).finally(() => {
          this.running.delete(p);
          this.wake?.();
        });
        this.running.add(p);
      }
      if (claimed.length === 0 || this.running.size >= slots) await this.idle(this.opts.pollMs ?? 1_000);
    }
  }

  private idle(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(done, ms);
      timer.unref();
      function done() {
        clearTimeout(timer);
        resolve();
      }
      this.wake = done;
    });
  }

  private async runJob(job: RunningJob): Promise<void> {
    const { store, blobs, logger } = this.opts;
    const kind = this.opts.kinds.get(job.kind) as JobKind;
    const progress = new JobProgress();
    const lost = new AbortController();
    const signal = AbortSignal.any([this.stopping.signal, lost.signal]);
    const heartbeat = setInterval(() => {
      renewJob(store, job, this.owner, progress, Date.now())
        .then((holds) => {
          if (!holds) lost.abort(new Error('the job was taken from this run'));
        })
        .catch((err: unknown) => logger.warn({ err, job }, 'scan job lease renewal failed'));
    }, HEARTBEAT_MS);
    heartbeat.unref();
    try {
      const outcome = await kind.run({ store, blobs, logger, job, progress, signal });
      signal.throwIfAborted();
      await finishJob(store, job, this.owner, progress, outcome);
    } catch (err) {
      if (lost.signal.aborted) return; // another run holds it now
      if (this.stopping.signal.aborted) {
        // Stopping: hand the job back at once rather than leave it to its lease.
        await releaseJob(store, job, this.owner).catch((e: unknown) => logger.warn({ err: e, job }, 'releasing a scan job failed'));
        return;
      }
      const message = err instanceof Error ? err.message : String(err);
      logger.warn({ err, job }, 'scan job failed');
      await failJob(store, job, this.owner, progress, message, Date.now()).catch((e: unknown) =>
        logger.error({ err: e, job }, 'recording a failed scan job failed'),
      );
    } finally {
      clearInterval(heartbeat);
    }
  }
}

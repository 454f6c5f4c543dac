// The advisory follower: a background worker on every instance that keeps
// Berth's reports current as advisories change. It polls the advisory change
// log (imports run in their own process, so a poll is how their changes are
// seen; the probe is two indexed reads) and takes steps of advisory-cursor.ts
// while there are changes, each splicing the changed packages' matches into
// the reports of the images holding them. At start it queues a
// re-match for every stored inventory that never had one (images inventoried
// before reports existed), in bounded batches.
import type { Logger } from 'pino';
import type { BackgroundWorker } from '../../runtime/runtime.js';
import type { Store } from '../../store/store.js';
import { transact } from '../../store/transact.js';
import { enqueueScanJob } from '../jobs/enqueue-job.js';
import { advisoryChangesPending, followAdvisoryChanges } from './advisory-cursor.js';
import { REMATCH_JOB } from './rematch-job.js';

export interface AdvisoryFollowerOptions {
  store: Store;
  logger: Logger;
  /** How often the change log is looked at. */
  pollMs?: number;
}

const BACKFILL_BATCH = 500;
/** How often the change log is probed: a report is current this long after an import at most, plus the work. */
const POLL_MS = 250;

/** Queues a re-match for each stored inventory no 'rematch' job names yet; returns how many. */
export async function backfillReports(store: Store, signal: AbortSignal): Promise<number> {
  let after = '';
  let queued = 0;
  while (!signal.aborted) {
    const rows = await store.db
      .selectFrom('scan_inventories as i')
      .select('i.digest')
      .where('i.digest', '>', after)
      .where(({ not, exists, selectFrom }) =>
        not(exists(selectFrom('scan_jobs as j').select('j.digest').where('j.kind', '=', REMATCH_JOB).whereRef('j.digest', '=', 'i.digest'))),
      )
      .orderBy('i.digest')
      .limit(BACKFILL_BATCH)
      .execute();
    if (rows.length === 0) break;
    after = rows[rows.length - 1].digest;
    queued += await transact(store, async (tx) => {
      let n = 0;
      for (const r of rows) if (await enqueueScanJob(tx, REMATCH_JOB, r.digest)) n++;
      return n;
    });
    if (rows.length < BACKFILL_BATCH) break;
  }
  return queued;
}

export class AdvisoryFollower implements BackgroundWorker {
  readonly name = 'advisory-follower';
  private readonly stopping = new AbortController();
  private loop?: Promise<void>;
  private wake?: () => void;

  constructor(private readonly opts: AdvisoryFollowerOptions) {}

  start(): void {
    this.loop = this.run();
  }

  async stop(): Promise<void> {
    this.stopping.abort();
    this.wake?.();
    await this.loop;
  }

  private async run(): Promise<void> {
    const { store, logger } = this.opts;
    const signal = this.stopping.signal;
    try {
      await backfillReports(store, signal);
    } catch (err) {
      if (!signal.aborted) logger.error({ err }, 'report backfill failed; it runs again at the next start');
    }
    while (!signal.aborted) {
      let more = false;
      try {
        if (await advisoryChangesPending(store)) {
          const started = performance.now();
          const step = await followAdvisoryChanges(store, Date.now(), signal);
          if (step.images > 0)
            logger.info(
              { changes: step.changes, images: step.images, written: step.written, queued: step.queued, ms: Math.round(performance.now() - started) },
              'advisories changed: reports re-matched',
            );
          more = step.more;
        }
      } catch (err) {
        if (!signal.aborted) logger.error({ err }, 'following the advisory changes failed');
      }
      if (!more) await this.idle(this.opts.pollMs ?? POLL_MS);
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
}

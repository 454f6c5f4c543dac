// The advisory follower: a background worker on every instance that keeps
// Berth's reports current as advisories change. It polls the advisory change
// log (imports run in their own process, so a poll is how their changes are
// seen; the probe is two indexed reads). On SQLite it also watches the
// database's commit counter (PRAGMA data_version: no table read, so cheap
// enough every few ms) and probes as soon as any connection committed, so an
// import's changes are taken up within milliseconds rather than a poll
// interval. It takes steps of advisory-cursor.ts
// while there are changes, each splicing the changed packages' matches into
// the reports of the images holding them. At start it queues a
// re-match for every stored inventory that never had one (images inventoried
// before reports existed), in bounded batches.
import type { Logger } from 'pino';
import type { BackgroundWorker } from '../../runtime/runtime.js';
import type { Store } from '../../store/store.js';
import { directReadsOf } from '../../store/direct-reads.js';
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
/** On SQLite, how often the commit counter is looked at while idle: a commit by any connection ends the wait. */
const COMMIT_WATCH_MS = 20;

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

  /** Waits `ms`, or on SQLite until any connection commits, whichever is first. */
  private idle(ms: number): Promise<void> {
    const direct = directReadsOf(this.opts.store.db);
    const seen = direct?.dataVersion();
    return new Promise((resolve) => {
      const timer = setTimeout(done, ms);
      timer.unref();
      const watch =
        direct === undefined
          ? undefined
          : setInterval(() => {
              if (direct.dataVersion() !== seen) done();
            }, COMMIT_WATCH_MS).unref();
      function done() {
        clearTimeout(timer);
        clearInterval(watch);
        resolve();
      }
      this.wake = done;
    });
  }
}

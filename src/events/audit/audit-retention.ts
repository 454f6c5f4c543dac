// Retention of the audit log (--audit-retention, default 90 days): a worker on
// every instance deletes the entries older than it, oldest first, in bounded
// batches — a read finds a batch, a short transaction deletes it — so a large
// backlog (a first run, a shortened retention) is worked off over several runs
// without holding SQLite's writer or long row locks. Instances sharing a
// database may delete the same batch; the second deletes nothing.
import type { Logger } from 'pino';
import type { BackgroundWorker } from '../../runtime/runtime.js';
import type { Store } from '../../store/store.js';
import { transact } from '../../store/transact.js';

const BATCH = 500;
const MAX_BATCHES_PER_RUN = 20;

/** Deletes up to MAX_BATCHES_PER_RUN batches of entries older than the retention; how many went. */
export async function pruneAuditEntries(store: Store, retentionMs: number, now: number): Promise<number> {
  const cutoff = new Date(now - retentionMs).toISOString();
  let removed = 0;
  for (let i = 0; i < MAX_BATCHES_PER_RUN; i++) {
    const found = await store.db.selectFrom('audit_entries').select('uid').where('create_time', '<', cutoff).orderBy('create_time').limit(BATCH).execute();
    if (found.length === 0) break;
    await transact(store, (tx) =>
      tx
        .deleteFrom('audit_entries')
        .where(
          'uid',
          'in',
          found.map((r) => r.uid),
        )
        .execute(),
    );
    removed += found.length;
    if (found.length < BATCH) break;
  }
  return removed;
}

export class AuditRetention implements BackgroundWorker {
  readonly name = 'audit-retention';
  private readonly stopping = new AbortController();
  private loop?: Promise<void>;
  private wake?: () => void;

  constructor(private readonly opts: { store: Store; logger: Logger; retentionMs: number }) {}

  start(): void {
    this.loop = this.run();
  }

  async stop(): Promise<void> {
    this.stopping.abort();
    this.wake?.();
    await this.loop;
  }

  private async run(): Promise<void> {
    const { store, logger, retentionMs } = this.opts;
    const signal = this.stopping.signal;
    // A quarter of the retention, between a second and ten minutes: entries outlive it by at most that.
    const every = Math.min(Math.max(retentionMs / 4, 1000), 600_000);
    while (!signal.aborted) {
      let full = false;
      try {
        const n = await pruneAuditEntries(store, retentionMs, Date.now());
        full = n >= BATCH * MAX_BATCHES_PER_RUN;
        if (n > 0) logger.debug({ removed: n }, 'audit entries past retention deleted');
      } catch (err) {
        if (!signal.aborted) logger.warn({ err: { message: (err as Error).message } }, 'audit retention failed; retrying');
      }
      if (!signal.aborted) await this.idle(full ? 0 : every);
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

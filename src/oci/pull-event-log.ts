// Writes pull events. A pull changes nothing, so there is no transaction for
// its event to join; instead each pull waits until its event has committed
// and only then sends its response, so a crash after a client got its bytes
// has lost no event. Committing every pull on its own cost a transaction per
// GET, more than the GET itself (docs/performance.md); instead pulls
// commit in groups: those queued in one turn of the event loop start a batch
// (node:sqlite commits synchronously, so nothing arrives while a commit runs:
// a batch must be gathered before it starts), and those arriving while a
// batch commits (PostgreSQL) go in the next. A pull waits for at most the
// batch before its own and its own, never for a timer.
import { emitEvent, type NewEvent } from '../events/outbox.js';
import type { Store } from '../store/store.js';
import { transact } from '../store/transact.js';

/** Most events in one commit; more wait for the next. */
export const MAX_PULL_BATCH = 256;

interface Waiting {
  event: NewEvent;
  resolve(): void;
  reject(err: unknown): void;
}

export class PullEventLog {
  private queue: Waiting[] = [];
  private committing = false;
  private scheduled = false;

  constructor(private readonly store: Store) {}

  /** Resolves once `event` is committed; rejects when its batch could not be. */
  record(event: NewEvent): Promise<void> {
    return new Promise((resolve, reject) => {
      this.queue.push({ event, resolve, reject });
      if (!this.committing && !this.scheduled) {
        this.scheduled = true;
        // Once every request of this turn of the event loop has queued its event.
        setImmediate(() => {
          this.scheduled = false;
          void this.commitQueued();
        });
      }
    });
  }

  private async commitQueued(): Promise<void> {
    this.committing = true;
    try {
      while (this.queue.length > 0) {
        const batch = this.queue.splice(0, MAX_PULL_BATCH);
        try {
          await transact(this.store, async (tx) => {
            for (const w of batch) await emitEvent(tx, w.event);
          });
          for (const w of batch) w.resolve();
        } catch (err) {
          for (const w of batch) w.reject(err);
        }
      }
    } finally {
      this.committing = false;
    }
  }
}

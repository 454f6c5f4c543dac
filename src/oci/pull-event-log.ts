// Writes pull events. A pull changes nothing, so there is no transaction for
// its event to join; instead each pull waits until its event has committed
// and only then sends its response, so a crash after a client got its bytes
// has lost no event. Committing every pull on its own would cost a
// transaction per GET; pulls arriving while a commit is under way wait for
// the next one, and all of them commit together (group commit: under load a
// batch forms while the previous one commits; alone, a pull commits at once).
// The wait is one commit at most, plus the batch's own.
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

  constructor(private readonly store: Store) {}

  /** Resolves once `event` is committed; rejects when its batch could not be. */
  record(event: NewEvent): Promise<void> {
    return new Promise((resolve, reject) => {
      this.queue.push({ event, resolve, reject });
      if (!this.committing) void this.commitQueued();
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

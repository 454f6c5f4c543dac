// Waiting for SQLite's write lock without freezing the event loop. node:sqlite
// is synchronous, so its busy timeout sleeps the whole process; instead the
// writer connection has no busy timeout and a statement that finds the lock
// taken (SQLITE_BUSY: another process writes) is retried after a short async
// sleep, until a deadline, then the request is UNAVAILABLE. Inside the process
// writers queue at a FIFO gate (one connection, one writer) under the same deadline.
import { setTimeout as sleep } from 'node:timers/promises';
import { DatabaseUnavailable } from './database-unavailable.js';

const SQLITE_BUSY = 5;

function isBusy(err: unknown): boolean {
  const e = err as { code?: unknown; errcode?: unknown } | null;
  return e?.code === 'ERR_SQLITE_ERROR' && typeof e.errcode === 'number' && (e.errcode & 0xff) === SQLITE_BUSY;
}

/** Runs `attempt` (synchronous, made no change when it failed busy) until it gets the lock or `deadline` passes. */
export async function whileBusy<T>(attempt: () => T, deadline: number): Promise<T> {
  for (let delay = 2; ; delay = Math.min(delay * 2, 50)) {
    try {
      return attempt();
    } catch (err) {
      if (!isBusy(err)) throw err;
      if (Date.now() + delay > deadline) throw new DatabaseUnavailable('another process holds the database write lock', { cause: err });
      await sleep(delay * (0.5 + Math.random())); // jitter: instances sharing the file do not retry in step
    }
  }
}

/**
 * One writer at a time inside this process, first come first served. A
 * waiter says whether it is a transaction that may join a commit group
 * (sqlite-driver.ts): the holder leaves its transaction open only for one.
 */
export class WriteGate {
  private held = false;
  private readonly waiters: Array<{ wake: () => void; joins: boolean }> = [];

  /** Writers queued behind the holder (the metrics' group-commit queue). */
  get waiting(): number {
    return this.waiters.length;
  }

  async acquire(deadline: number, joins = false): Promise<void> {
    if (!this.held) {
      this.held = true;
      return;
    }
    await new Promise<void>((resolve, reject) => {
      const waiter = {
        joins,
        wake: () => {
          clearTimeout(timer);
          resolve();
        },
      };
      const timer = setTimeout(
        () => {
          const i = this.waiters.indexOf(waiter);
          if (i >= 0) this.waiters.splice(i, 1);
          reject(new DatabaseUnavailable('timed out waiting for the database write lock'));
        },
        Math.max(0, deadline - Date.now()),
      );
      this.waiters.push(waiter);
    });
  }

  /** Whether the next holder is a transaction that may join a commit group. */
  nextJoins(): boolean {
    return this.waiters[0]?.joins === true;
  }

  release(): void {
    const next = this.waiters.shift();
    if (next)
      next.wake(); // the gate passes straight to the next writer
    else this.held = false;
  }
}

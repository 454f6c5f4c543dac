// The one write path: domain code changes the database only inside
// transact(store, async (tx) => …), so every mutating RPC is one transaction
// and anything that must commit with the change (an event for the outbox, a
// history row) is one call on `tx` away. Reads take an Executor: the store's
// Kysely instance or a transaction, whichever the caller is in.
import { setTimeout as sleep } from 'node:timers/promises';
import type { Kysely, Transaction } from 'kysely';
import type { Database } from './database.js';
import type { Store } from './store.js';
import { isTransactionConflict } from './transaction-conflict.js';

export type Executor = Kysely<Database>;
export type Tx = Transaction<Database>;

const commitHooks = new WeakMap<Tx, Array<() => void>>();

/** Runs of one transaction the database may end as a deadlock victim before transact() gives up and reports the error. */
const ATTEMPTS = 4;

/**
 * Runs `work` in one transaction and commits it. When the database ends the
 * transaction as a deadlock or serialization victim (transaction-conflict.ts)
 * it is rolled back whole and run again, after a short random pause so the two
 * do not meet again in step; `work` must therefore keep its effects in `tx`
 * (or make them safe to repeat), as every caller's does.
 */
export async function transact<T>(store: Store, work: (tx: Tx) => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    const hooks: Array<() => void> = [];
    let result: T;
    try {
      result = await store.db.transaction().execute((tx) => {
        commitHooks.set(tx, hooks);
        return work(tx);
      });
    } catch (err) {
      if (attempt >= ATTEMPTS || !isTransactionConflict(err)) throw err;
      await sleep(attempt * (5 + Math.random() * 20));
      continue;
    }
    runHooks(hooks);
    return result;
  }
}

function runHooks(hooks: Array<() => void>): void {
  for (const hook of hooks) {
    try {
      hook();
    } catch {
      // the change committed: a failed notification must not report it failed
    }
  }
}

/**
 * Runs `hook` once `tx` has committed (never when it rolls back): for telling
 * something in this process that committed rows are there to read (the event
 * delivery worker). A hook must not write; what it throws is dropped.
 */
export function afterCommit(tx: Tx, hook: () => void): void {
  commitHooks.get(tx)?.push(hook);
}

// The one write path: domain code changes the database only inside
// transact(store, async (tx) => …), so every mutating RPC is one transaction
// and anything that must commit with the change (an event for the outbox, a
// history row) is one call on `tx` away. Reads take an Executor: the store's
// Kysely instance or a transaction, whichever the caller is in.
import type { Kysely, Transaction } from 'kysely';
import type { Database } from './database.js';
import type { Store } from './store.js';

export type Executor = Kysely<Database>;
export type Tx = Transaction<Database>;

const commitHooks = new WeakMap<Tx, Array<() => void>>();

export async function transact<T>(store: Store, work: (tx: Tx) => Promise<T>): Promise<T> {
  const hooks: Array<() => void> = [];
  const result = await store.db.transaction().execute((tx) => {
    commitHooks.set(tx, hooks);
    return work(tx);
  });
  for (const hook of hooks) {
    try {
      hook();
    } catch {
      // the change committed: a failed notification must not report it failed
    }
  }
  return result;
}

/**
 * Runs `hook` once `tx` has committed (never when it rolls back): for telling
 * something in this process that committed rows are there to read (the event
 * delivery worker). A hook must not write; what it throws is dropped.
 */
export function afterCommit(tx: Tx, hook: () => void): void {
  commitHooks.get(tx)?.push(hook);
}

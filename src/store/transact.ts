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

export function transact<T>(store: Store, work: (tx: Tx) => Promise<T>): Promise<T> {
  return store.db.transaction().execute(work);
}

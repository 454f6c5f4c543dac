// Writing what attempts came to, many in one transaction. A result is
// written only while its claim still holds the row: if the lease ran out and
// another worker took it, or an operator asked for a redelivery meanwhile,
// the late result is dropped (the row is being handled anew). A delivery that
// is done (delivered or dead) lets the next pending event of its
// subscription and subject go at once.
import { sql } from 'kysely';
import type { Store } from '../../store/store.js';
import { transact } from '../../store/transact.js';
import { DELIVERY_DEAD, DELIVERY_DELIVERED, DELIVERY_PENDING } from '../events-tables.js';

export const MAX_ERROR_CHARS = 500;

export interface AttemptResult {
  id: number;
  lease_owner: string;
  subscription_uid: string;
  subject: string;
  outbox_id: number;
  outcome: 'delivered' | 'retry' | 'dead';
  /** The sink's HTTP status; 0 without an answer. */
  statusCode: number;
  error: string;
  /** For 'retry': when (ms since the epoch). */
  nextAttempt?: number;
}

export async function writeResults(store: Store, results: readonly AttemptResult[], now: number): Promise<void> {
  if (results.length === 0) return;
  const nowIso = new Date(now).toISOString();
  await transact(store, async (tx) => {
    for (const r of results) {
      const done = r.outcome !== 'retry';
      const updated = await tx
        .updateTable('event_deliveries')
        .set({
          status: r.outcome === 'delivered' ? DELIVERY_DELIVERED : r.outcome === 'dead' ? DELIVERY_DEAD : DELIVERY_PENDING,
          next_attempt_time: done ? '' : new Date(r.nextAttempt ?? now).toISOString(),
          lease_owner: '',
          last_status_code: r.statusCode,
          last_error: r.error.slice(0, MAX_ERROR_CHARS),
          delivered_time: r.outcome === 'delivered' ? nowIso : '',
        })
        .where('id', '=', r.id)
        .where('lease_owner', '=', r.lease_owner)
        .executeTakeFirst();
      if (!done || updated.numUpdatedRows === 0n) continue;
      // The next event of the chain, if it waits parked (not one in flight).
      await tx
        .updateTable('event_deliveries')
        .set({ next_attempt_time: nowIso })
        .where(
          'id',
          '=',
          sql<number>`(select e.id from event_deliveries e where e.status = ${DELIVERY_PENDING} and e.subscription_uid = ${r.subscription_uid}
            and e.subject = ${r.subject} and e.outbox_id > ${r.outbox_id} order by e.outbox_id limit 1)`,
        )
        .where('lease_owner', '=', '')
        .where('next_attempt_time', '>', nowIso)
        .execute();
    }
  });
}

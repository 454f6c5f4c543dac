// Retention (--event-retention): delivered rows of events older than it, and
// delivered before it, are deleted; then outbox rows older than it that
// nothing refers to any more (internal events, customer events fanned out
// whose deliveries are gone). Pending and dead deliveries stay (and keep
// their events) until delivered, redelivered or their subscription goes.
// Work comes in bounded batches, each its own short transaction, so a large
// backlog is worked off over several runs without holding the database.
import { sql } from 'kysely';
import type { Store } from '../../store/store.js';
import { transact } from '../../store/transact.js';
import { DELIVERY_DELIVERED } from '../events-tables.js';

const BATCH = 500;
const MAX_BATCHES_PER_RUN = 20;

/** Deletes what retention allows, up to a bound; returns how many rows went. */
export async function pruneDeliveries(store: Store, retentionMs: number, now: number): Promise<number> {
  const cutoff = new Date(now - retentionMs).toISOString();
  let removed = 0;
  for (let i = 0; i < MAX_BATCHES_PER_RUN; i++) {
    const n = await transact(store, async (tx) => {
      const ids = await tx
        .selectFrom('event_outbox as o')
        .innerJoin('event_deliveries as d', 'd.outbox_id', 'o.id')
        .select('d.id')
        .where('o.create_time', '<', cutoff)
        .where('d.status', '=', DELIVERY_DELIVERED)
        .where('d.delivered_time', '<', cutoff)
        .orderBy('o.create_time')
        .limit(BATCH)
        .execute();
      if (ids.length === 0) return 0;
      await tx
        .deleteFrom('event_deliveries')
        .where(
          'id',
          'in',
          ids.map((r) => r.id),
        )
        .execute();
      return ids.length;
    });
    removed += n;
    if (n < BATCH) break;
  }
  for (let i = 0; i < MAX_BATCHES_PER_RUN; i++) {
    const n = await transact(store, async (tx) => {
      const ids = await tx
        .selectFrom('event_outbox as o')
        .select('o.id')
        .where('o.create_time', '<', cutoff)
        .where((eb) => eb.or([eb('o.fanned_out', '=', 1), eb('o.audience', '=', 0)]))
        .where(sql<boolean>`not exists (select 1 from event_deliveries d where d.outbox_id = o.id)`)
        .orderBy('o.create_time')
        .limit(BATCH)
        .execute();
      if (ids.length === 0) return 0;
      await tx
        .deleteFrom('event_outbox')
        .where(
          'id',
          'in',
          ids.map((r) => r.id),
        )
        .execute();
      return ids.length;
    });
    removed += n;
    if (n < BATCH) break;
  }
  return removed;
}

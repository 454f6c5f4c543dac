// Retention (--event-retention): delivered rows of events older than it, and
// delivered before it, are deleted; then outbox rows older than it that
// nothing refers to any more (internal events, customer events fanned out
// whose deliveries are gone). Pending and dead deliveries stay (and keep
// their events) until delivered, redelivered or their subscription goes.
// Work comes in bounded batches: a read finds a batch (no lock), then a short
// transaction deletes it, checking each row still qualifies (a redelivery may
// have made one pending again); a large backlog is worked off over runs.
import { sql } from 'kysely';
import type { Store } from '../../store/store.js';
import { transact } from '../../store/transact.js';
import { DELIVERY_DELIVERED } from '../events-tables.js';

const BATCH = 500;
const MAX_BATCHES_PER_RUN = 20;

async function pruneDelivered(store: Store, cutoff: string): Promise<number> {
  const found = await store.db
    .selectFrom('event_outbox as o')
    .innerJoin('event_deliveries as d', 'd.outbox_id', 'o.id')
    .select('d.id')
    .where('o.create_time', '<', cutoff)
    .where('d.status', '=', DELIVERY_DELIVERED)
    .where('d.delivered_time', '<', cutoff)
    .orderBy('o.create_time')
    .limit(BATCH)
    .execute();
  if (found.length === 0) return 0;
  await transact(store, (tx) =>
    tx
      .deleteFrom('event_deliveries')
      .where(
        'id',
        'in',
        found.map((r) => r.id),
      )
      .where('status', '=', DELIVERY_DELIVERED)
      .where('delivered_time', '<', cutoff)
      .execute(),
  );
  return found.length;
}

async function pruneOutbox(store: Store, cutoff: string): Promise<number> {
  const unreferenced = sql<boolean>`not exists (select 1 from event_deliveries d where d.outbox_id = event_outbox.id)`;
  const found = await store.db
    .selectFrom('event_outbox')
    .select('id')
    .where('create_time', '<', cutoff)
    .where((eb) => eb.or([eb('fanned_out', '=', 1), eb('audience', '=', 0)]))
    .where(unreferenced)
    .orderBy('create_time')
    .limit(BATCH)
    .execute();
  if (found.length === 0) return 0;
  await transact(store, (tx) =>
    tx
      .deleteFrom('event_outbox')
      .where(
        'id',
        'in',
        found.map((r) => r.id),
      )
      .where(unreferenced)
      .execute(),
  );
  return found.length;
}

/** Deletes what retention allows, up to a bound; returns how many rows went. */
export async function pruneDeliveries(store: Store, retentionMs: number, now: number): Promise<number> {
  const cutoff = new Date(now - retentionMs).toISOString();
  let removed = 0;
  for (const step of [pruneDelivered, pruneOutbox]) {
    for (let i = 0; i < MAX_BATCHES_PER_RUN; i++) {
      const n = await step(store, cutoff);
      removed += n;
      if (n < BATCH) break;
    }
  }
  return removed;
}

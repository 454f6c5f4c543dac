// The delivery queue's depth by state, for the metrics gauge read at each
// scrape (src/runtime/queue-gauges.ts). One GROUP BY over event_deliveries.
import type { Kysely } from 'kysely';
import type { Database } from '../../store/database.js';
import { DELIVERY_DEAD, DELIVERY_DELIVERED, DELIVERY_PENDING } from '../events-tables.js';

const STATES: Record<number, string> = { [DELIVERY_PENDING]: 'pending', [DELIVERY_DELIVERED]: 'delivered', [DELIVERY_DEAD]: 'dead' };

/** Deliveries by state (pending, delivered, dead); a state with none is 0. */
export async function deliveriesByState(db: Kysely<Database>): Promise<Array<{ state: string; count: number }>> {
  const rows = await db
    .selectFrom('event_deliveries')
    .select(['status', (eb) => eb.fn.countAll<number>().as('n')])
    .groupBy('status')
    .execute();
  const counts = new Map(rows.map((r) => [Number(r.status), Number(r.n)]));
  return Object.entries(STATES).map(([status, state]) => ({ state, count: counts.get(Number(status)) ?? 0 }));
}

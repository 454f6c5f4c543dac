// A chain is the pending deliveries of one subscription and subject, in event
// (outbox) order; only its head, the earliest, may be attempted. These are
// the SQL pieces that find heads, each one step along the index
// event_deliveries_chain (subscription, subject, status, outbox_id): never a
// walk along a chain, which behind a failing sink can be long.
import { sql, type RawBuilder } from 'kysely';
import { DELIVERY_PENDING } from '../events-tables.js';

/**
 * DELIVERY_PENDING written into the SQL, not bound: partial indexes (such as
 * event_deliveries_due) are usable only where the planner sees the status.
 */
export const PENDING = sql.lit(DELIVERY_PENDING);

export interface Chain {
  subscription_uid: string;
  subject: string;
}

/** The chains among `items`, each once. */
export function distinctChains<T extends Chain>(items: readonly T[]): T[] {
  return [...new Map(items.map((c) => [`${c.subscription_uid}\u0000${c.subject}`, c])).values()];
}

/** `(head id of chain 1), (head id of chain 2), …`: for `id in (…)`; a chain with nothing pending gives null. */
export function headIds(chains: readonly Chain[]): RawBuilder<unknown> {
  return sql.join(
    chains.map(
      (c) => sql`(select h.id from event_deliveries h
        where h.subscription_uid = ${c.subscription_uid} and h.subject = ${c.subject} and h.status = ${PENDING} order by h.outbox_id limit 1)`,
    ),
  );
}

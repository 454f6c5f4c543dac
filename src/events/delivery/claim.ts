// Claiming due deliveries for one worker, in one transaction. A claimed row
// gets the claim's owner and next_attempt_time = the lease's end: nobody else
// takes it while the attempt is in flight, and if this process dies the lease
// runs out and the row is due again (at least once; same ce-id).
//
// Order per subscription and subject: a row is claimed only when no earlier
// event of its subscription and subject is still pending. A row found waiting
// behind one is parked until that one's next attempt (or a second from now),
// so a long backlog behind a failing sink is looked at once per retry, not on
// every pass; the result of the earlier one wakes it at once (results.ts).
// On PostgreSQL the candidate rows are read FOR UPDATE SKIP LOCKED, so
// workers on several instances claim disjoint rows; SQLite runs one writing
// transaction at a time (and one worker, worker-lease.ts).
import { sql } from 'kysely';
import type { Store } from '../../store/store.js';
import { transact } from '../../store/transact.js';
import { DELIVERY_PENDING } from '../events-tables.js';
import type { OutboxEvent } from './delivery-message.js';

/** Longer than an attempt can take (REQUEST_TIMEOUT_MS and writing its result). */
export const LEASE_MS = 30_000;
const PARK_MIN_MS = 1_000;
/** Candidates looked at per claimed slot: room for parked ones without an unbounded read. */
const CANDIDATES_PER_SLOT = 4;

export interface ClaimedDelivery extends OutboxEvent {
  id: number;
  /** The claim: results are written only while it still holds the row. */
  lease_owner: string;
  subscription_uid: string;
  outbox_id: number;
  attempts: number;
  retry_from: string;
  sink: string;
  signing_secret: string;
  /** The subscription's group. */
  subscription_group: string;
}

/** Whether any delivery is due (one index probe, no lock). */
export async function deliveriesDue(store: Store, nowIso: string): Promise<boolean> {
  const row = await store.db
    .selectFrom('event_deliveries')
    .select('id')
    .where('status', '=', DELIVERY_PENDING)
    .where('next_attempt_time', '<=', nowIso)
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}

/** Claims up to `slots` due deliveries for `owner`; returns them with their event and subscription. */
export async function claimDeliveries(store: Store, owner: string, slots: number, now: number): Promise<ClaimedDelivery[]> {
  const nowIso = new Date(now).toISOString();
  return transact(store, async (tx) => {
    const candidates = await store.caps
      .claimRows(
        tx
          .selectFrom('event_deliveries as d')
          .select(['d.id', 'd.outbox_id'])
          .select(
            sql<string | null>`(select min(e.next_attempt_time) from event_deliveries e
              where e.status = ${DELIVERY_PENDING} and e.subscription_uid = d.subscription_uid and e.subject = d.subject and e.outbox_id < d.outbox_id)`.as(
              'blocked_until',
            ),
          )
          .where('d.status', '=', DELIVERY_PENDING)
          .where('d.next_attempt_time', '<=', nowIso)
          .orderBy('d.next_attempt_time')
          .orderBy('d.id')
          .limit(slots * CANDIDATES_PER_SLOT),
      )
      .execute();
    const ready = candidates.filter((c) => c.blocked_until === null).slice(0, slots);
    for (const c of candidates) {
      if (c.blocked_until === null) continue;
      const until = new Date(Math.max(Date.parse(c.blocked_until) || 0, now + PARK_MIN_MS)).toISOString();
      await tx.updateTable('event_deliveries').set({ next_attempt_time: until }).where('id', '=', c.id).execute();
    }
    if (ready.length === 0) return [];
    const ids = ready.map((c) => c.id);
    await tx
      .updateTable('event_deliveries')
      .set((eb) => ({ lease_owner: owner, next_attempt_time: new Date(now + LEASE_MS).toISOString(), attempts: eb('attempts', '+', 1) }))
      .where('id', 'in', ids)
      .execute();
    return tx
      .selectFrom('event_deliveries as d')
      .innerJoin('event_outbox as o', 'o.id', 'd.outbox_id')
      .innerJoin('event_subscriptions as s', 's.uid', 'd.subscription_uid')
      .select([
        'd.id',
        'd.lease_owner',
        'd.subscription_uid',
        'd.outbox_id',
        'd.attempts',
        'd.retry_from',
        's.sink',
        's.signing_secret',
        's.parent_uid as subscription_group',
        'o.event_id',
        'o.type',
        'o.group_uid',
        'o.subject',
        'o.actor',
        'o.body',
        'o.body_type',
        'o.extensions',
        'o.create_time',
      ])
      .where('d.id', 'in', ids)
      .orderBy('d.id')
      .execute();
  });
}

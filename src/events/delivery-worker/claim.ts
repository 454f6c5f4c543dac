// Claiming due deliveries for one worker, in the worker's transaction. A claimed row
// gets the claim's owner and next_attempt_time = the lease's end: nobody else
// takes it while the attempt is in flight, and if this process dies the lease
// runs out and the row is due again (at least once; same ce-id).
//
// Order per subscription and subject: a row is claimed only when no earlier
// event of its subscription and subject is still pending. A row found waiting
// behind one is parked (LEASE_MS, or until that one's next attempt when that
// is later), so a long backlog behind a failing sink is looked at once in a
// while, not on every pass; when the one ahead is done, its result wakes the
// next at once (results.ts).
// On PostgreSQL the candidate rows are read FOR UPDATE SKIP LOCKED, so
// workers on several instances claim disjoint rows; SQLite runs one writing
// transaction at a time (and one worker, worker-lease.ts).
import { sql } from 'kysely';
import type { DatabaseCapabilities } from '../../store/db-capabilities.js';
import { compiledQuery, runCompiled } from '../../store/compiled-queries.js';
import type { Store } from '../../store/store.js';
import type { Tx } from '../../store/transact.js';
import { PENDING } from './chains.js';
import type { OutboxEvent } from './delivery-message.js';

const DELIVERIES_DUE = compiledQuery('event deliveries due');

/** Longer than an attempt can take: REQUEST_TIMEOUT_MS once connected, as long again to get a connection, and writing its result. */
export const LEASE_MS = 30_000;
/** Candidates looked at per claimed slot: room for parked ones without an unbounded read. */
const CANDIDATES_PER_SLOT = 4;
/** How long a delivery waiting behind another of its chain is parked, unless woken sooner (results.ts). */
export const PARK_MS = LEASE_MS;
/** Attempts one subscription may have in flight in one worker: a slow sink cannot take every slot. */
export const PER_SUBSCRIPTION_IN_FLIGHT = 16;

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

/** Whether any delivery is due (one index probe, no lock; compiled once: it runs every poll). */
export async function deliveriesDue(store: Store, nowIso: string): Promise<boolean> {
  const rows = await runCompiled(store.db, DELIVERIES_DUE, [nowIso], ([now]) =>
    store.db
      .selectFrom('event_deliveries')
      .select('id')
      .where('status', '=', PENDING)
      .where('next_attempt_time', '<=', now as string)
      .limit(1),
  );
  return rows.length > 0;
}

/**
 * Claims up to `slots` due deliveries for `owner` inside `tx`, no more per
 * subscription than PER_SUBSCRIPTION_IN_FLIGHT counting `inFlight` (this
 * worker's attempts per subscription); returns them with their event and
 * subscription.
 */
export async function claimDeliveries(
  tx: Tx,
  caps: DatabaseCapabilities,
  owner: string,
  slots: number,
  inFlight: ReadonlyMap<string, number>,
  now: number,
): Promise<ClaimedDelivery[]> {
  const nowIso = new Date(now).toISOString();
  const full = [...inFlight].filter(([, n]) => n >= PER_SUBSCRIPTION_IN_FLIGHT).map(([uid]) => uid);
  let query = tx
    .selectFrom('event_deliveries as d')
    .select(['d.id', 'd.outbox_id', 'd.subscription_uid'])
    // The head of the row's chain (its earliest pending event), if it is not the head itself:
    // what it waits for. Ordered by outbox_id, so one step along event_deliveries_chain.
    .select(
      sql<string | null>`(select e.next_attempt_time from event_deliveries e
            where e.subscription_uid = d.subscription_uid and e.subject = d.subject and e.status = ${PENDING} and e.outbox_id < d.outbox_id
            order by e.outbox_id limit 1)`.as('blocked_until'),
    )
    .where('d.status', '=', PENDING)
    .where('d.next_attempt_time', '<=', nowIso);
  if (full.length > 0) query = query.where('d.subscription_uid', 'not in', full);
  const candidates = await caps
    .claimRows(
      query
        .orderBy('d.next_attempt_time')
        .orderBy('d.id')
        .limit(slots * CANDIDATES_PER_SLOT),
    )
    .execute();
  const taken = new Map(inFlight);
  const ready: typeof candidates = [];
  for (const c of candidates) {
    const n = taken.get(c.subscription_uid) ?? 0;
    if (c.blocked_until !== null || n >= PER_SUBSCRIPTION_IN_FLIGHT || ready.length >= slots) continue;
    taken.set(c.subscription_uid, n + 1);
    ready.push(c);
  }
  // Parked until the event ahead is done (results.ts wakes the next one then), or at the latest
  // a lease from now, or when the event ahead is next tried if that is later still.
  const parkEnd = now + PARK_MS;
  const parked = candidates.filter((c) => c.blocked_until !== null);
  const soon = parked.filter((c) => (Date.parse(c.blocked_until!) || 0) <= parkEnd).map((c) => c.id);
  if (soon.length > 0)
    await tx
      .updateTable('event_deliveries')
      .set({ next_attempt_time: new Date(parkEnd).toISOString() })
      .where('id', 'in', soon)
      .execute();
  for (const c of parked) {
    if ((Date.parse(c.blocked_until!) || 0) <= parkEnd) continue;
    await tx.updateTable('event_deliveries').set({ next_attempt_time: c.blocked_until! }).where('id', '=', c.id).execute();
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
}

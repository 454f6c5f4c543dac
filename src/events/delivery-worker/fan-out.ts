// Fan-out: customer events in the outbox become deliveries, one per
// subscription on the event's group or any ancestor of it (a uid's ancestors
// are its prefixes, so another organization's subscriptions never match). A
// batch runs in the worker's transaction: read unmarked rows, insert their
// deliveries, mark them; a crash before commit leaves them unmarked for the
// next pass, and the unique (event, subscription) index makes a repeat
// harmless. On PostgreSQL SKIP LOCKED shares the rows out between instances.
import { sql, type Insertable } from 'kysely';
import { ancestorsOf } from '../../core/uidp.js';
import type { DatabaseCapabilities } from '../../store/db-capabilities.js';
import { compiledQuery, runCompiled } from '../../store/compiled-queries.js';
import type { Store } from '../../store/store.js';
import type { Tx } from '../../store/transact.js';
import { DELIVERY_PENDING, type EventDeliveriesTable } from '../events-tables.js';
import { type Chain, distinctChains, headIds } from './chains.js';
import { PARK_MS } from './claim.js';

const OUTBOX_TO_FAN_OUT = compiledQuery('event outbox to fan out');

export const FAN_OUT_BATCH = 256;
// Parameters per statement stay well under SQLite's and PostgreSQL's limits.
const GROUPS_PER_QUERY = 500;
const ROWS_PER_INSERT = 200;
const CHAINS_PER_QUERY = 200;
// Written into the SQL, not bound, so the partial index event_outbox_to_fan_out applies.
const NOT_YET = sql.lit(0);
const CUSTOMER = sql.lit(1);

/** Whether any customer event awaits fan-out (one index probe, no lock; compiled once: it runs every poll). */
export async function fanOutPending(store: Store): Promise<boolean> {
  const rows = await runCompiled(store.db, OUTBOX_TO_FAN_OUT, [], () =>
    store.db.selectFrom('event_outbox').select('id').where('fanned_out', '=', NOT_YET).where('audience', '=', CUSTOMER).limit(1),
  );
  return rows.length > 0;
}

/** The (subscription, subject) chains of `rows` that have a pending delivery already. */
async function pendingChains(tx: Tx, rows: readonly Insertable<EventDeliveriesTable>[]): Promise<Set<string>> {
  const chains = distinctChains(rows as readonly Chain[]);
  const out = new Set<string>();
  for (let i = 0; i < chains.length; i += CHAINS_PER_QUERY) {
    const found = await sql<Chain>`select subscription_uid, subject from event_deliveries
      where id in (${headIds(chains.slice(i, i + CHAINS_PER_QUERY))})`.execute(tx);
    for (const f of found.rows) out.add(`${f.subscription_uid}\u0000${f.subject}`);
  }
  return out;
}

/** Fans out up to FAN_OUT_BATCH events inside `tx`; returns how many. */
export async function fanOutBatch(tx: Tx, caps: DatabaseCapabilities): Promise<number> {
  const events = await caps
    .claimRows(
      tx
        .selectFrom('event_outbox')
        .select(['id', 'group_uid', 'subject', 'create_time'])
        .where('fanned_out', '=', NOT_YET)
        .where('audience', '=', CUSTOMER)
        .orderBy('id')
        .limit(FAN_OUT_BATCH),
    )
    .execute();
  if (events.length === 0) return 0;
  const groups = [...new Set(events.flatMap((e) => [e.group_uid, ...ancestorsOf(e.group_uid)]))];
  const byGroup = new Map<string, { uid: string; create_time: string }[]>();
  for (let i = 0; i < groups.length; i += GROUPS_PER_QUERY) {
    const subs = await tx
      .selectFrom('event_subscriptions')
      .select(['uid', 'parent_uid', 'create_time'])
      .where('parent_uid', 'in', groups.slice(i, i + GROUPS_PER_QUERY))
      .execute();
    for (const s of subs) {
      const list = byGroup.get(s.parent_uid) ?? [];
      list.push(s);
      byGroup.set(s.parent_uid, list);
    }
  }
  const now = Date.now();
  const nowText = new Date(now).toISOString();
  const rows: Insertable<EventDeliveriesTable>[] = [];
  for (const e of events) {
    for (const g of [e.group_uid, ...ancestorsOf(e.group_uid)]) {
      for (const s of byGroup.get(g) ?? []) {
        // A subscription made after the event was written does not get it.
        if (s.create_time > e.create_time) continue;
        rows.push({
          subscription_uid: s.uid,
          outbox_id: e.id,
          subject: e.subject,
          status: DELIVERY_PENDING,
          attempts: 0,
          next_attempt_time: e.create_time,
          retry_from: e.create_time,
          lease_owner: '',
          last_status_code: 0,
          last_error: '',
          create_time: nowText,
          delivered_time: '',
        });
      }
    }
  }
  // A delivery behind a pending one of its subscription and subject starts parked (claim.ts):
  // the one ahead wakes it when done, so it is not read and parked by a claim first.
  const waiting = await pendingChains(tx, rows);
  const parkedUntil = new Date(now + PARK_MS).toISOString();
  for (const r of rows) {
    const chain = `${r.subscription_uid}\u0000${r.subject}`;
    if (waiting.has(chain)) r.next_attempt_time = parkedUntil;
    else waiting.add(chain);
  }
  for (let i = 0; i < rows.length; i += ROWS_PER_INSERT) {
    await tx
      .insertInto('event_deliveries')
      .values(rows.slice(i, i + ROWS_PER_INSERT))
      .onConflict((oc) => oc.columns(['outbox_id', 'subscription_uid']).doNothing())
      .execute();
  }
  await tx
    .updateTable('event_outbox')
    .set({ fanned_out: 1 })
    .where(
      'id',
      'in',
      events.map((e) => e.id),
    )
    .execute();
  return events.length;
}

// Fan-out: customer events in the outbox become deliveries, one per
// subscription on the event's group or any ancestor of it (a uid's ancestors
// are its prefixes, so another organization's subscriptions never match). A
// batch is one transaction: read unmarked rows, insert their deliveries, mark
// them; a crash before commit leaves them unmarked for the next pass, and the
// unique (event, subscription) index makes a repeat harmless. On PostgreSQL
// SKIP LOCKED shares the rows out between instances.
import { nowIso } from '../../core/clock.js';
import { ancestorsOf } from '../../core/uidp.js';
import type { Store } from '../../store/store.js';
import { transact } from '../../store/transact.js';
import { DELIVERY_PENDING, type EventDeliveriesTable } from '../events-tables.js';
import type { Insertable } from 'kysely';

export const FAN_OUT_BATCH = 256;
// Parameters per statement stay well under SQLite's and PostgreSQL's limits.
const GROUPS_PER_QUERY = 500;
const ROWS_PER_INSERT = 200;

/** Whether any customer event awaits fan-out (one index probe, no lock). */
export async function fanOutPending(store: Store): Promise<boolean> {
  const row = await store.db.selectFrom('event_outbox').select('id').where('fanned_out', '=', 0).where('audience', '=', 1).limit(1).executeTakeFirst();
  return row !== undefined;
}

/** Fans out up to FAN_OUT_BATCH events; returns how many. */
export async function fanOutBatch(store: Store): Promise<number> {
  return transact(store, async (tx) => {
    const events = await store.caps
      .claimRows(
        tx
          .selectFrom('event_outbox')
          .select(['id', 'group_uid', 'subject', 'create_time'])
          .where('fanned_out', '=', 0)
          .where('audience', '=', 1)
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
    const now = nowIso();
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
            create_time: now,
            delivered_time: '',
          });
        }
      }
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
  });
}

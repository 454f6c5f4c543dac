// Subscriptions as stored (event_subscriptions) and as the v2 API shows them.
// The signing secret never leaves the row: a response says only whether one
// is set (`signed`).
import { create } from '@bufbuild/protobuf';
import { SubscriptionSchema, type Subscription } from '../../gen/berth/events/v2/subscriptions_pb.js';
import { isoToTimestamp } from '../../core/clock.js';
import type { Executor } from '../../store/transact.js';
import type { EventSubscriptionsTable } from '../events-tables.js';
import { subscriptionNotFound } from '../errors.js';

export type SubscriptionRow = EventSubscriptionsTable;

export function subscriptionFromRow(row: SubscriptionRow): Subscription {
  return create(SubscriptionSchema, {
    uid: row.uid,
    sink: row.sink,
    signed: row.signing_secret !== '',
    createTime: isoToTimestamp(row.create_time),
  });
}

/** The subscription `uid`; NOT_FOUND when there is none. */
export async function loadSubscriptionRow(db: Executor, uid: string): Promise<SubscriptionRow> {
  const row = await db.selectFrom('event_subscriptions').selectAll().where('uid', '=', uid).executeTakeFirst();
  if (!row) throw subscriptionNotFound(uid);
  return row;
}

// A delivery as the API shows it: the row with its event's id, type and
// subject (from the outbox), read by one query shape for the log and for
// redelivery's answer.
import { create } from '@bufbuild/protobuf';
import { isoToTimestamp } from '../../core/clock.js';
import { DeliverySchema, type Delivery, type Delivery_Status } from '../../gen/berth/events/v2/subscriptions_pb.js';
import type { Executor } from '../../store/transact.js';
import { DELIVERY_DELIVERED, DELIVERY_PENDING } from '../events-tables.js';

export interface DeliveryRow {
  id: number;
  subscription_uid: string;
  outbox_id: number;
  status: number;
  attempts: number;
  next_attempt_time: string;
  last_status_code: number;
  last_error: string;
  create_time: string;
  delivered_time: string;
  event_id: string;
  type: string;
  subject: string;
}

/** The deliveries query, joined to their events; callers add conditions and order. */
export function deliveryRows(db: Executor) {
  return db
    .selectFrom('event_deliveries as d')
    .innerJoin('event_outbox as o', 'o.id', 'd.outbox_id')
    .select([
      'd.id',
      'd.subscription_uid',
      'd.outbox_id',
      'd.status',
      'd.attempts',
      'd.next_attempt_time',
      'd.last_status_code',
      'd.last_error',
      'd.create_time',
      'd.delivered_time',
      'o.event_id',
      'o.type',
      'o.subject',
    ]);
}

/** `namespace` is --event-namespace: the event type is shown as delivered (ce-type). */
export function deliveryFromRow(r: DeliveryRow, namespace: string): Delivery {
  return create(DeliverySchema, {
    id: String(r.id),
    subscription: r.subscription_uid,
    eventId: r.event_id,
    eventType: `${namespace}.${r.type}`,
    eventSubject: r.subject,
    status: r.status as Delivery_Status,
    attempts: r.attempts,
    lastStatusCode: r.last_status_code,
    lastError: r.last_error,
    nextAttemptTime: r.status === DELIVERY_PENDING && r.next_attempt_time !== '' ? isoToTimestamp(r.next_attempt_time) : undefined,
    createTime: isoToTimestamp(r.create_time),
    deliveredTime: r.status === DELIVERY_DELIVERED && r.delivered_time !== '' ? isoToTimestamp(r.delivered_time) : undefined,
  });
}

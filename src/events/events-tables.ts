// The events domain's tables. A subscription belongs to its group and goes
// with it. The outbox holds every event, written in the transaction of the
// change it describes (outbox.ts); delivery state lives beside it
// (migration 0012, src/events/delivery-worker/): a delivery per event and
// subscription, and on SQLite the lease of the one worker that runs.
import type { Generated } from 'kysely';
import type { ResourceColumns } from '../store/database.js';

export interface EventSubscriptionsTable extends ResourceColumns {
  parent_uid: string;
  sink: string;
  /** Standard Webhooks secret, sealed with the operator's secrets key when there is one; '' when unsigned. */
  signing_secret: string;
}

export interface EventOutboxTable {
  /** Commit order of the events: what the delivery worker walks. */
  id: Generated<number>;
  /** The CloudEvent id (ce-id): the same on every delivery attempt. */
  event_id: string;
  /** The type after the namespace, e.g. api.iam.group.created.v1. */
  type: string;
  /** 1 customer (delivered to subscriptions), 0 internal (never delivered). */
  audience: number;
  /** The group whose subscriptions, and its ancestors', receive the event. */
  group_uid: string;
  /** The uid (or id) of the resource the event is about: ce-subject. */
  subject: string;
  /** JSON: {subject: <identity uid>} of whoever made the change; {} for the system. */
  actor: string;
  /** JSON: the v2 message in proto3 JSON (or the registry's access record). */
  body: string;
  /** The body's message type, e.g. berth.iam.v2.Group: the bodytype extension. */
  body_type: string;
  /** JSON object of further CloudEvent extension attributes. */
  extensions: string;
  create_time: string;
  /** 1 once the delivery worker made its deliveries (customer events only). */
  fanned_out: Generated<number>;
}

/** Delivery.Status values, as stored. */
export const DELIVERY_PENDING = 1;
export const DELIVERY_DELIVERED = 2;
export const DELIVERY_DEAD = 3;

export interface EventDeliveriesTable {
  /** Unique within the subscription: the API's delivery id. */
  id: Generated<number>;
  subscription_uid: string;
  /** The event (event_outbox.id): also its order among the subject's events. */
  outbox_id: number;
  /** The event's subject: deliveries of one subscription and subject go in outbox order. */
  subject: string;
  /** DELIVERY_PENDING, DELIVERY_DELIVERED or DELIVERY_DEAD. */
  status: number;
  /** Attempts since the delivery (or its redelivery) started, counted when claimed. */
  attempts: number;
  /**
   * Pending: when it may be claimed next. A claimed row's is its lease's end,
   * so the claim of a process that died runs out and the row is claimed again.
   * '' once delivered or dead.
   */
  next_attempt_time: string;
  /** Retries stop --event-max-age after this: the event's time, or the redelivery's. */
  retry_from: string;
  /** The claim holding it while an attempt is in flight; '' when none. */
  lease_owner: string;
  /** HTTP status of the last attempt; 0 when it got no answer. */
  last_status_code: number;
  /** Why the last attempt failed (never a secret, a token or the sink's URL). */
  last_error: string;
  create_time: string;
  /** '' until delivered. */
  delivered_time: string;
}

/** Which process runs the delivery worker where the database cannot share out rows (SQLite). */
export interface EventWorkerLeasesTable {
  name: string;
  owner: string;
  expire_time: string;
}

declare module '../store/database.js' {
  interface Database {
    event_subscriptions: EventSubscriptionsTable;
    event_outbox: EventOutboxTable;
    event_deliveries: EventDeliveriesTable;
    event_worker_leases: EventWorkerLeasesTable;
  }
}

// The events domain's tables. A subscription belongs to its group and goes
// with it. The outbox holds every event, written in the transaction of the
// change it describes (outbox.ts); delivery state lives beside it (the
// delivery worker's migration).
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
}

declare module '../store/database.js' {
  interface Database {
    event_subscriptions: EventSubscriptionsTable;
    event_outbox: EventOutboxTable;
  }
}

// Delivery state beside the outbox (src/events/delivery-worker/): one row per event
// and subscription that receives it, the outbox's fan-out mark, and the
// lease that lets one SQLite process at a time run the delivery worker.
//
// Fan-out marks each outbox row instead of keeping a cursor: on PostgreSQL
// ids are taken when a transaction inserts, not when it commits, so a row with
// a smaller id can become visible after a larger one, and a cursor moved past
// the larger one would skip it for ever. A mark cannot skip anything.
import { sql, type Kysely } from 'kysely';
import type { DatabaseCapabilities } from '../../store/db-capabilities.js';

export async function up(db: Kysely<unknown>, caps: DatabaseCapabilities): Promise<void> {
  const t = caps.keyText();
  await db.schema
    .alterTable('event_outbox')
    .addColumn('fanned_out', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  // The customer events still to fan out (the worker's first read), and the oldest rows (retention).
  await db.schema
    .createIndex('event_outbox_to_fan_out')
    .on('event_outbox')
    .column('id')
    .where(sql.ref('fanned_out'), '=', 0)
    .where(sql.ref('audience'), '=', 1)
    .execute();
  await db.schema.createIndex('event_outbox_created').on('event_outbox').columns(['create_time', 'id']).execute();

  await db.schema
    .createTable('event_deliveries')
    .addColumn('id', caps.serialType, (c) => (caps.serialNeedsAutoIncrement ? c.primaryKey().autoIncrement() : c.primaryKey()))
    .addColumn('subscription_uid', t, (c) => c.notNull())
    .addColumn('outbox_id', 'bigint', (c) => c.notNull())
    .addColumn('subject', t, (c) => c.notNull())
    .addColumn('status', 'integer', (c) => c.notNull())
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('next_attempt_time', t, (c) => c.notNull())
    .addColumn('retry_from', t, (c) => c.notNull())
    .addColumn('lease_owner', t, (c) => c.notNull().defaultTo(''))
    .addColumn('last_status_code', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('last_error', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('create_time', t, (c) => c.notNull())
    .addColumn('delivered_time', t, (c) => c.notNull().defaultTo(''))
    .addForeignKeyConstraint('event_deliveries_subscription_uid_fk', ['subscription_uid'], 'event_subscriptions', ['uid'], (fk) => fk.onDelete('cascade'))
    .addForeignKeyConstraint('event_deliveries_outbox_id_fk', ['outbox_id'], 'event_outbox', ['id'], (fk) => fk.onDelete('cascade'))
    .execute();
  // What the worker claims: pending rows by next attempt (a partial index stays as small as the backlog).
  await db.schema.createIndex('event_deliveries_due').on('event_deliveries').columns(['next_attempt_time', 'id']).where(sql.ref('status'), '=', 1).execute();
  // The pending chain of one subscription and subject, in event order: the per-subject ordering
  // check. Not partial: SQLite (no statistics) would rather take event_deliveries_log_status.
  await db.schema.createIndex('event_deliveries_chain').on('event_deliveries').columns(['subscription_uid', 'subject', 'status', 'outbox_id']).execute();
  // One delivery per event and subscription, whoever fans out (and the outbox's pruning and cascade).
  await db.schema.createIndex('event_deliveries_event').on('event_deliveries').columns(['outbox_id', 'subscription_uid']).unique().execute();
  // The delivery log, newest event first, with and without a status filter.
  await db.schema.createIndex('event_deliveries_log').on('event_deliveries').columns(['subscription_uid', 'outbox_id']).execute();
  await db.schema.createIndex('event_deliveries_log_status').on('event_deliveries').columns(['subscription_uid', 'status', 'outbox_id']).execute();

  await db.schema
    .createTable('event_worker_leases')
    .addColumn('name', t, (c) => c.primaryKey())
    .addColumn('owner', t, (c) => c.notNull())
    .addColumn('expire_time', t, (c) => c.notNull())
    .execute();
}

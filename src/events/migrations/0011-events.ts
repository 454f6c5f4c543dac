// Event subscriptions and the transactional outbox (src/events/events-tables.ts).
import type { Kysely } from 'kysely';
import type { DatabaseCapabilities } from '../../store/db-capabilities.js';
import { versionTable } from '../../store/versioned-table.js';

export async function up(db: Kysely<unknown>, caps: DatabaseCapabilities): Promise<void> {
  const t = caps.keyText();
  await db.schema
    .createTable('event_subscriptions')
    .addColumn('uid', t, (c) => c.primaryKey())
    .addColumn('parent_uid', t, (c) => c.notNull())
    .addColumn('sink', 'text', (c) => c.notNull())
    .addColumn('signing_secret', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('create_time', t, (c) => c.notNull())
    .addColumn('update_time', t, (c) => c.notNull())
    .addForeignKeyConstraint('event_subscriptions_parent_uid_fk', ['parent_uid'], 'groups', ['uid'], (fk) => fk.onDelete('cascade'))
    .execute();
  await db.schema.createIndex('event_subscriptions_parent').on('event_subscriptions').columns(['parent_uid']).execute();
  await db.schema.createIndex('event_subscriptions_created_uid').on('event_subscriptions').columns(['create_time', 'uid']).execute();
  await versionTable(db, caps, 'event_subscriptions');

  await db.schema
    .createTable('event_outbox')
    .addColumn('id', caps.serialType, (c) => (caps.serialNeedsAutoIncrement ? c.primaryKey().autoIncrement() : c.primaryKey()))
    .addColumn('event_id', t, (c) => c.notNull().unique())
    .addColumn('type', t, (c) => c.notNull())
    .addColumn('audience', 'integer', (c) => c.notNull())
    .addColumn('group_uid', t, (c) => c.notNull())
    .addColumn('subject', t, (c) => c.notNull())
    .addColumn('actor', 'text', (c) => c.notNull())
    .addColumn('body', 'text', (c) => c.notNull())
    .addColumn('body_type', t, (c) => c.notNull())
    .addColumn('extensions', 'text', (c) => c.notNull())
    .addColumn('create_time', t, (c) => c.notNull())
    .execute();
}

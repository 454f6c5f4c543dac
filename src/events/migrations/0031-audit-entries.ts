// The audit log (src/events/audit/, docs/audit.md): one row per change, written
// in the change's transaction, and per refused mutation. Read newest first
// within a caller's subtrees (the uid key and create_time), by identity or
// resource; retention deletes the oldest first (create_time).
import type { Kysely } from 'kysely';
import type { DatabaseCapabilities } from '../../store/db-capabilities.js';

export async function up(db: Kysely<unknown>, caps: DatabaseCapabilities): Promise<void> {
  const t = caps.keyText();
  await db.schema
    .createTable('audit_entries')
    .addColumn('uid', t, (c) => c.primaryKey())
    .addColumn('parent_uid', t, (c) => c.notNull())
    .addColumn('identity', t, (c) => c.notNull())
    .addColumn('action', t, (c) => c.notNull())
    .addColumn('resource_uid', t, (c) => c.notNull())
    .addColumn('resource_type', t, (c) => c.notNull())
    .addColumn('resource_name', 'text', (c) => c.notNull())
    .addColumn('address', t, (c) => c.notNull())
    .addColumn('outcome', 'integer', (c) => c.notNull())
    .addColumn('create_time', t, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('audit_entries_created').on('audit_entries').columns(['create_time', 'uid']).execute();
  await db.schema.createIndex('audit_entries_parent').on('audit_entries').columns(['parent_uid', 'create_time']).execute();
  await db.schema.createIndex('audit_entries_identity').on('audit_entries').columns(['identity', 'create_time']).execute();
  await db.schema.createIndex('audit_entries_resource').on('audit_entries').columns(['resource_uid', 'create_time']).execute();
}

// Advisories, their aliases and events, and the import file hashes
// (src/vulnerabilities/advisory-tables.ts). Every exact filter of
// ListAdvisories has an index; the order columns have (column, uid) indexes.
import type { Kysely } from 'kysely';
import type { DatabaseCapabilities } from '../../store/db-capabilities.js';
import { versionTable } from '../../store/versioned-table.js';

const FILTERED = [
  'advisory_id',
  'legacy_advisory_id',
  'origin',
  'artifact_name',
  'artifact_type',
  'artifact_architecture',
  'component_name',
  'component_type',
  'component_location',
  'latest_event_type',
] as const;

export async function up(db: Kysely<unknown>, caps: DatabaseCapabilities): Promise<void> {
  const t = caps.keyText();
  await db.schema
    .createTable('advisories')
    .addColumn('uid', t, (c) => c.primaryKey())
    .addColumn('parent_uid', t, (c) => c.notNull())
    .addColumn('advisory_id', t, (c) => c.notNull())
    .addColumn('legacy_advisory_id', t)
    .addColumn('origin', t, (c) => c.notNull())
    .addColumn('package_namespace', t, (c) => c.notNull().defaultTo(''))
    .addColumn('author', 'text', (c) => c.notNull())
    .addColumn('artifact_name', t, (c) => c.notNull())
    .addColumn('artifact_type', t, (c) => c.notNull())
    .addColumn('artifact_architecture', t, (c) => c.notNull())
    .addColumn('component_name', t, (c) => c.notNull())
    .addColumn('component_type', t, (c) => c.notNull())
    .addColumn('component_location', t, (c) => c.notNull())
    .addColumn('aliases', 'text', (c) => c.notNull())
    .addColumn('search', 'text', (c) => c.notNull())
    .addColumn('latest_event_type', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('source', t, (c) => c.notNull())
    .addColumn('source_file', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('create_time', t, (c) => c.notNull())
    .addColumn('update_time', t, (c) => c.notNull())
    .addForeignKeyConstraint('advisories_parent_uid_fk', ['parent_uid'], 'groups', ['uid'], (fk) => fk.onDelete('cascade'))
    .execute();
  for (const column of FILTERED) {
    await db.schema.createIndex(`advisories_${column}`).on('advisories').columns([column, 'uid']).execute();
  }
  await db.schema.createIndex('advisories_parent').on('advisories').columns(['parent_uid']).execute();
  await db.schema.createIndex('advisories_created_uid').on('advisories').columns(['create_time', 'uid']).execute();
  await db.schema.createIndex('advisories_updated_uid').on('advisories').columns(['update_time', 'uid']).execute();
  await db.schema.createIndex('advisories_source').on('advisories').columns(['source', 'source_file']).execute();
  await versionTable(db, caps, 'advisories');

  await db.schema
    .createTable('advisory_aliases')
    .addColumn('advisory_uid', t, (c) => c.notNull())
    .addColumn('alias', t, (c) => c.notNull())
    .addPrimaryKeyConstraint('advisory_aliases_pk', ['advisory_uid', 'alias'])
    .addForeignKeyConstraint('advisory_aliases_advisory_fk', ['advisory_uid'], 'advisories', ['uid'], (fk) => fk.onDelete('cascade'))
    .execute();
  await db.schema.createIndex('advisory_aliases_alias').on('advisory_aliases').columns(['alias', 'advisory_uid']).execute();

  await db.schema
    .createTable('advisory_events')
    .addColumn('uid', t, (c) => c.primaryKey())
    .addColumn('advisory_uid', t, (c) => c.notNull())
    .addColumn('create_time', t, (c) => c.notNull())
    .addColumn('update_time', t, (c) => c.notNull())
    .addColumn('author', t, (c) => c.notNull())
    .addColumn('reviewer', t, (c) => c.notNull().defaultTo(''))
    .addColumn('review_state', 'integer', (c) => c.notNull())
    .addColumn('type', 'integer', (c) => c.notNull())
    .addColumn('data', 'text', (c) => c.notNull())
    .addColumn('findings', caps.bytesType)
    .addColumn('issue', 'text')
    .addColumn('content_hash', t, (c) => c.notNull())
    .addForeignKeyConstraint('advisory_events_advisory_fk', ['advisory_uid'], 'advisories', ['uid'], (fk) => fk.onDelete('cascade'))
    .execute();
  // One covering index serves both the page's events (by advisory, in time
  // order) and every event filter: they are EXISTS probes per listed advisory
  // (advisory_uid = ?), which read a few entries of this index and no table
  // row. An index per filtered column as well made imports slower and no list
  // faster (the outer walk over advisories is the same; docs/performance.md).
  await db.schema
    .createIndex('advisory_events_advisory')
    .on('advisory_events')
    .columns(['advisory_uid', 'create_time', 'review_state', 'type', 'author', 'reviewer'])
    .execute();

  await db.schema
    .createTable('advisory_import_files')
    .addColumn('file_key', t, (c) => c.primaryKey())
    .addColumn('content_hash', t, (c) => c.notNull())
    .addColumn('import_time', t, (c) => c.notNull())
    .execute();
}

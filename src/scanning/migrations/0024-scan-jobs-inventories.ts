// Scan jobs and stored inventories (scan-job-tables.ts, inventory-tables.ts).
// Existing images get no rows here: the scan worker's backfill enqueues them
// when it starts (jobs/backfill.ts), in bounded batches.
import { sql, type Kysely } from 'kysely';
import type { DatabaseCapabilities } from '../../store/db-capabilities.js';

export async function up(db: Kysely<unknown>, caps: DatabaseCapabilities): Promise<void> {
  const t = caps.keyText();
  await db.schema
    .createTable('scan_jobs')
    .addColumn('kind', t, (c) => c.notNull())
    .addColumn('digest', t, (c) => c.notNull())
    .addColumn('status', t, (c) => c.notNull())
    .addColumn('generation', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('next_attempt_time', t, (c) => c.notNull())
    .addColumn('lease_owner', t, (c) => c.notNull().defaultTo(''))
    .addColumn('error', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('layers_done', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('layers_total', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('bytes_read', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('create_time', t, (c) => c.notNull())
    .addColumn('update_time', t, (c) => c.notNull())
    .addColumn('finish_time', t, (c) => c.notNull().defaultTo(''))
    .addPrimaryKeyConstraint('scan_jobs_pk', ['kind', 'digest'])
    .execute();
  // What the worker claims: pending and running (lease ended) rows by time; stays as small as the backlog.
  await db.schema
    .createIndex('scan_jobs_due')
    .on('scan_jobs')
    .columns(['next_attempt_time'])
    .where(sql.ref('status'), 'in', sql`('pending', 'running')`)
    .execute();
  // A digest's jobs of every kind (GetSbom's "not yet scanned" answer).
  await db.schema.createIndex('scan_jobs_digest').on('scan_jobs').columns(['digest']).execute();

  await db.schema
    .createTable('scan_inventories')
    .addColumn('digest', t, (c) => c.primaryKey())
    .addColumn('status', t, (c) => c.notNull())
    .addColumn('os', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('skipped', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('skipped_count', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('package_count', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('reader_version', 'integer', (c) => c.notNull())
    .addColumn('sboms', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('create_time', t, (c) => c.notNull())
    .addColumn('update_time', t, (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('scan_packages')
    .addColumn('digest', t, (c) => c.notNull())
    .addColumn('position', 'integer', (c) => c.notNull())
    .addColumn('type', t, (c) => c.notNull())
    .addColumn('namespace', t)
    .addColumn('name', t, (c) => c.notNull())
    .addColumn('version', t, (c) => c.notNull())
    .addColumn('purl', 'text', (c) => c.notNull())
    .addColumn('source_name', t)
    .addColumn('source_version', t)
    .addColumn('licenses', 'text')
    .addColumn('architecture', t)
    .addColumn('locations', 'text', (c) => c.notNull())
    .addColumn('found_by', t, (c) => c.notNull())
    .addPrimaryKeyConstraint('scan_packages_pk', ['digest', 'position'])
    .addForeignKeyConstraint('scan_packages_digest_fk', ['digest'], 'scan_inventories', ['digest'], (fk) => fk.onDelete('cascade'))
    .execute();
  // What re-matching looks up when an advisory changes: the images holding a package, by name or by source package.
  await db.schema.createIndex('scan_packages_name').on('scan_packages').columns(['type', 'name']).execute();
  await db.schema.createIndex('scan_packages_source').on('scan_packages').columns(['type', 'source_name']).execute();
}

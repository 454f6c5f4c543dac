// Matching's view of the advisories (src/vulnerabilities/range-tables.ts):
// the record's version data, the range rows looked up by (ecosystem,
// package), and the change log. Advisories imported before this migration
// get their rows from their stored events here (an OSV import with --force
// adds the ranges their records carried).
import type { Kysely } from 'kysely';
import type { DatabaseCapabilities } from '../../store/db-capabilities.js';
import type { Database } from '../../store/database.js';
import type { Tx } from '../../store/transact.js';
import { refreshRanges } from '../affected/range-writer.js';

export async function up(db: Kysely<unknown>, caps: DatabaseCapabilities): Promise<void> {
  const t = caps.keyText();
  await db.schema
    .createTable('advisory_affected')
    .addColumn('advisory_uid', t, (c) => c.primaryKey())
    .addColumn('data', 'text', (c) => c.notNull())
    .addForeignKeyConstraint('advisory_affected_advisory_fk', ['advisory_uid'], 'advisories', ['uid'], (fk) => fk.onDelete('cascade'))
    .execute();

  await db.schema
    .createTable('advisory_ranges')
    .addColumn('advisory_uid', t, (c) => c.notNull())
    .addColumn('position', 'integer', (c) => c.notNull())
    .addColumn('ecosystem', t, (c) => c.notNull())
    .addColumn('package', t, (c) => c.notNull())
    .addColumn('scheme', t, (c) => c.notNull())
    .addColumn('status', t, (c) => c.notNull())
    .addColumn('introduced', 'text', (c) => c.notNull())
    .addColumn('fixed', 'text', (c) => c.notNull())
    .addColumn('last_affected', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('advisory_ranges_pk', ['advisory_uid', 'position'])
    .addForeignKeyConstraint('advisory_ranges_advisory_fk', ['advisory_uid'], 'advisories', ['uid'], (fk) => fk.onDelete('cascade'))
    .execute();
  // Matching's one lookup: every row of a batch of (ecosystem, package) keys.
  await db.schema.createIndex('advisory_ranges_package').on('advisory_ranges').columns(['ecosystem', 'package', 'advisory_uid']).execute();

  await db.schema
    .createTable('advisory_changes')
    .addColumn('id', caps.serialType, (c) => (caps.serialNeedsAutoIncrement ? c.primaryKey().autoIncrement() : c.primaryKey()))
    .addColumn('ecosystem', t, (c) => c.notNull())
    .addColumn('package', t, (c) => c.notNull())
    .addColumn('change_time', t, (c) => c.notNull())
    .execute();

  const typed = db as unknown as Kysely<Database>;
  let after = '';
  for (;;) {
    const page = await typed.selectFrom('advisories').select('uid').where('uid', '>', after).orderBy('uid').limit(2000).execute();
    if (page.length === 0) break;
    // A migration runs on the migrator's connection under its lock, before any server takes requests:
    // the one place these rows are written outside transact().
    await refreshRanges(
      typed as unknown as Tx,
      page.map((r) => r.uid),
      { record: false },
    );
    after = page[page.length - 1].uid;
  }
}

// Berth's own vulnerability reports and what keeps them current
// (src/scanning/reports/): a generation on vuln_reports, raised each time a
// report's matches change; one BERTH row per repo and digest (rewritten in
// place, scanner reports keep one row per report time); the (ecosystem,
// package) keys of each stored inventory, which an advisory change is looked
// up by; and the cursor over the advisory change log, shared by every instance.
import { sql, type Kysely } from 'kysely';
import type { DatabaseCapabilities } from '../../store/db-capabilities.js';

export async function up(db: Kysely<unknown>, caps: DatabaseCapabilities): Promise<void> {
  const t = caps.keyText();
  await db.schema
    .alterTable('vuln_reports')
    .addColumn('generation', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema
    .createIndex('vuln_reports_berth')
    .on('vuln_reports')
    .columns(['repo_uid', 'digest'])
    .unique()
    .where(sql.ref('scanner_name'), '=', sql.lit('BERTH'))
    .execute();

  await db.schema
    .createTable('scan_inventory_keys')
    .addColumn('ecosystem', t, (c) => c.notNull())
    .addColumn('package', t, (c) => c.notNull())
    .addColumn('digest', t, (c) => c.notNull())
    .addPrimaryKeyConstraint('scan_inventory_keys_pk', ['ecosystem', 'package', 'digest'])
    .addForeignKeyConstraint('scan_inventory_keys_digest_fk', ['digest'], 'scan_inventories', ['digest'], (fk) => fk.onDelete('cascade'))
    .execute();
  // A re-scan replaces an inventory's keys.
  await db.schema.createIndex('scan_inventory_keys_digest').on('scan_inventory_keys').columns(['digest']).execute();

  await db.schema
    .createTable('scan_cursors')
    .addColumn('name', t, (c) => c.primaryKey())
    .addColumn('position', 'bigint', (c) => c.notNull())
    .addColumn('gaps', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('update_time', t, (c) => c.notNull())
    .execute();
}

// Berth's own reports stored by package (src/scanning/reports/report-parts.ts):
// one row per report and package with matches, holding that package's matches
// as they appear inside the report's JSON array, their sha256, and their ids
// and severities (what a splice's event needs, without the text). A splice
// after an advisory change rewrites only the changed packages' rows. BERTH
// rows written this way keep '' in vuln_reports.vulnerabilities; older rows
// keep their whole text there until a whole re-match rewrites them.
import type { Kysely } from 'kysely';
import type { DatabaseCapabilities } from '../../store/db-capabilities.js';

export async function up(db: Kysely<unknown>, _caps: DatabaseCapabilities): Promise<void> {
  await db.schema
    .createTable('berth_report_parts')
    .addColumn('report_id', 'bigint', (c) => c.notNull())
    .addColumn('package_index', 'integer', (c) => c.notNull())
    .addColumn('text', 'text', (c) => c.notNull())
    .addColumn('digest', 'text', (c) => c.notNull())
    .addColumn('matches', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('berth_report_parts_pk', ['report_id', 'package_index'])
    .addForeignKeyConstraint('berth_report_parts_report_fk', ['report_id'], 'vuln_reports', ['id'], (fk) => fk.onDelete('cascade'))
    .execute();
}

// What a splice reads of a report's parts (src/scanning/reports/report-splice.ts:
// each part's package index, digest and [id, severity] pairs, never its text)
// served from an index on SQLite, which otherwise reads every part's row and,
// the text column coming before the two it wants, walks the text's overflow
// pages to reach them. PostgreSQL keeps long text out of line and reads the
// short columns without it (and its B-tree could not hold a long `matches`).
import type { Kysely } from 'kysely';
import type { DatabaseCapabilities } from '../../store/db-capabilities.js';

export async function up(db: Kysely<unknown>, caps: DatabaseCapabilities): Promise<void> {
  if (caps.readsShortColumnsApart) return;
  await db.schema.createIndex('berth_report_parts_heads').on('berth_report_parts').columns(['report_id', 'package_index', 'digest', 'matches']).execute();
}

// Every versioned table's version (bumped by a trigger on each write, by any
// instance: migration 0002), read in one small query. A request reads them
// once and every cache it consults (access, list totals) checks against the
// same snapshot, so a write counts on the very next request, everywhere.
import type { Kysely } from 'kysely';
import { runCompiled } from './compiled-queries.js';
import type { Database } from './database.js';

/** table name → version, as text. */
export type TableVersions = ReadonlyMap<string, string>;

export async function readTableVersions(db: Kysely<Database>): Promise<TableVersions> {
  const rows = await runCompiled<{ table_name: string; version: string | number | bigint }>(db, 'table versions', [], () =>
    db.selectFrom('table_versions').select(['table_name', 'version']),
  );
  return new Map(rows.map((r) => [r.table_name, String(r.version)]));
}

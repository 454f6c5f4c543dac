// A version per table, bumped by triggers on every write by any instance and
// any code path, so caches keyed by it (list totals, grants) are right on the
// very next request. A domain's migration calls versionTable for each table
// whose reads it wants cached.
import { sql, type Kysely } from 'kysely';
import type { DatabaseCapabilities } from './db-capabilities.js';

/** Creates the table_versions row and the triggers for `table`. */
export async function versionTable(db: Kysely<unknown>, caps: DatabaseCapabilities, table: string): Promise<void> {
  await sql`insert into table_versions (table_name, version) values (${table}, 0)`.execute(db);
  if (caps.kind === 'postgres') {
    // berth_bump_table_version() is created once, by migration 0002.
    await sql`create trigger ${sql.raw(`${table}_version`)} after insert or update or delete on ${sql.table(table)}
      for each statement execute function berth_bump_table_version()`.execute(db);
    return;
  }
  for (const op of ['insert', 'update', 'delete']) {
    await sql`create trigger ${sql.raw(`${table}_version_${op}`)} after ${sql.raw(op)} on ${sql.table(table)}
      begin update table_versions set version = version + 1 where table_name = ${sql.lit(table)}; end`.execute(db);
  }
}

// A version per table, bumped by triggers on every write by any instance and
// any code path, so caches keyed by it (list totals, grants) are right on the
// very next request. A domain's migration calls versionTable for each table
// whose reads it wants cached.
import { sql, type Kysely } from 'kysely';
import type { DatabaseCapabilities } from './db-capabilities.js';

/** Creates the table_versions row and the triggers for `table`. */
export async function versionTable(db: Kysely<unknown>, caps: DatabaseCapabilities, table: string): Promise<void> {
  await sql`insert into table_versions (table_name, version) values (${table}, 0)`.execute(db);
  await caps.createVersionTriggers(db, table);
}

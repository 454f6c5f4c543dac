// Which table still holds rows that reference a row through a foreign key
// that forbids its deletion, read from the database's own catalogue: a domain
// can say "the group still has child repos" without keeping a list of the
// tables that point at groups.
import { sql, type Kysely } from 'kysely';
import type { DatabaseCapabilities } from './db-capabilities.js';
import type { Executor } from './transact.js';

/** The first table (by name) with a row referencing `key` of `table` that blocks its deletion. */
export async function blockingTable(db: Executor, caps: DatabaseCapabilities, table: string, key: string): Promise<string | undefined> {
  for (const ref of await caps.restrictingReferences(db as unknown as Kysely<unknown>, table)) {
    const hit = await sql`select 1 from ${sql.table(ref.tbl)} where ${sql.ref(ref.col)} = ${key} limit 1`.execute(db);
    if (hit.rows.length > 0) return ref.tbl;
  }
  return undefined;
}

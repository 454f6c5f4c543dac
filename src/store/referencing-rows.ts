// Which table still holds rows that reference a row through a foreign key
// that forbids its deletion (RESTRICT / NO ACTION), read from the database's
// own catalogue: a domain can say "the group still has child repos" without
// keeping a list of the tables that point at groups.
import { sql } from 'kysely';
import type { DatabaseCapabilities } from './db-capabilities.js';
import type { Executor } from './transact.js';

interface Reference {
  tbl: string;
  col: string;
}

async function restrictingReferences(db: Executor, caps: DatabaseCapabilities, table: string): Promise<Reference[]> {
  if (caps.kind === 'postgres') {
    const r = await sql<Reference>`select cl.relname as tbl, a.attname as col
      from pg_constraint c
      join pg_class cl on cl.oid = c.conrelid
      join pg_attribute a on a.attrelid = c.conrelid and a.attnum = c.conkey[1]
      where c.contype = 'f' and c.confrelid = ${table}::regclass and c.confdeltype in ('r', 'a')
      order by cl.relname`.execute(db);
    return r.rows;
  }
  const r = await sql<Reference>`select m.name as tbl, f."from" as col
    from sqlite_master m join pragma_foreign_key_list(m.name) f
    where m.type = 'table' and f."table" = ${table} and upper(f.on_delete) in ('RESTRICT', 'NO ACTION')
    order by m.name`.execute(db);
  return r.rows;
}

/** The first table (by name) with a row referencing `key` of `table` that blocks its deletion. */
export async function blockingTable(db: Executor, caps: DatabaseCapabilities, table: string, key: string): Promise<string | undefined> {
  for (const ref of await restrictingReferences(db, caps, table)) {
    const hit = await sql`select 1 from ${sql.table(ref.tbl)} where ${sql.ref(ref.col)} = ${key} limit 1`.execute(db);
    if (hit.rows.length > 0) return ref.tbl;
  }
  return undefined;
}

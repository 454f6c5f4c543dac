import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../store.js';

// A version per resource table, bumped by triggers on every write, so list
// totals can be cached until the table changes — on every instance, whatever
// code path wrote.
const TABLES = ['groups', 'identities', 'roles', 'role_bindings', 'repos', 'tags'];

export async function up(db: Kysely<unknown>, dialect: Dialect): Promise<void> {
  await db.schema
    .createTable('table_versions')
    .addColumn('table_name', dialect === 'postgres' ? sql`text collate "C"` : sql`text`, (c) => c.primaryKey())
    .addColumn('version', 'bigint', (c) => c.notNull().defaultTo(0))
    .execute();
  for (const t of TABLES) {
    await sql`insert into table_versions (table_name, version) values (${t}, 0)`.execute(db);
  }
  if (dialect === 'postgres') {
    await sql`create function berth_bump_table_version() returns trigger language plpgsql as $$
      begin
        update table_versions set version = version + 1 where table_name = TG_TABLE_NAME;
        return null;
      end $$`.execute(db);
    for (const t of TABLES) {
      await sql`create trigger ${sql.raw(`${t}_version`)} after insert or update or delete on ${sql.table(t)}
        for each statement execute function berth_bump_table_version()`.execute(db);
    }
  } else {
    for (const t of TABLES) {
      for (const op of ['insert', 'update', 'delete']) {
        await sql`create trigger ${sql.raw(`${t}_version_${op}`)} after ${sql.raw(op)} on ${sql.table(t)}
          begin update table_versions set version = version + 1 where table_name = ${sql.lit(t)}; end`.execute(db);
      }
    }
  }
}

// Adds foreign keys (and optional parents) to existing tables, for migrations.
// PostgreSQL alters the table in place. SQLite cannot add a constraint to a
// table, so the table is rebuilt the way SQLite documents it: foreign keys
// off, then in one transaction create the new table, copy, drop, rename, and
// recreate its indexes and triggers; then check every key and turn them on.
// Rows that point at nothing (left by code from before the keys) are dropped:
// they could never be read back as anything meaningful.
import { sql, type Kysely } from 'kysely';
import type { DatabaseCapabilities } from './db-capabilities.js';

export interface ForeignKey {
  column: string;
  /** Referenced table; its key is `uid`. */
  references: string;
  onDelete: 'cascade' | 'restrict';
}

export interface TableKeys {
  table: string;
  /** Columns that become nullable, '' turning into NULL ("no parent"). */
  optional?: string[];
  keys: ForeignKey[];
}

const constraintName = (table: string, fk: ForeignKey) => `${table}_${fk.column}_fk`;

async function alterInPlace(db: Kysely<unknown>, t: TableKeys): Promise<void> {
  for (const col of t.optional ?? []) {
    await sql`alter table ${sql.table(t.table)} alter column ${sql.ref(col)} drop not null`.execute(db);
    await sql`update ${sql.table(t.table)} set ${sql.ref(col)} = null where ${sql.ref(col)} = ''`.execute(db);
  }
  for (const fk of t.keys) {
    await sql`delete from ${sql.table(t.table)} where ${sql.ref(fk.column)} is not null
      and not exists (select 1 from ${sql.table(fk.references)} r where r.uid = ${sql.ref(`${t.table}.${fk.column}`)})`.execute(db);
    await sql`alter table ${sql.table(t.table)} add constraint ${sql.raw(constraintName(t.table, fk))}
      foreign key (${sql.ref(fk.column)}) references ${sql.table(fk.references)} (uid) on delete ${sql.raw(fk.onDelete)}`.execute(db);
  }
}

async function rebuild(db: Kysely<unknown>, t: TableKeys): Promise<void> {
  const rows = await sql<{ type: string; sql: string }>`select type, sql from sqlite_master where tbl_name = ${t.table} and sql is not null`.execute(db);
  const create = rows.rows.find((r) => r.type === 'table')?.sql;
  if (!create) throw new Error(`table ${t.table} not found`);
  const temp = `${t.table}__rebuilt`;
  let ddl = create.replace(/^CREATE TABLE\s+("?)[\w]+\1/i, `CREATE TABLE "${temp}"`);
  for (const col of t.optional ?? []) ddl = ddl.replace(new RegExp(`("${col}"\\s+text)\\s+not null`, 'i'), '$1');
  const clauses = t.keys.map(
    (fk) => `constraint "${constraintName(t.table, fk)}" foreign key ("${fk.column}") references "${fk.references}" ("uid") on delete ${fk.onDelete}`,
  );
  ddl = `${ddl.replace(/\)\s*$/, '')}, ${clauses.join(', ')})`;
  await sql.raw(ddl).execute(db);
  const columns = (await sql<{ name: string }>`select name from pragma_table_info(${t.table})`.execute(db)).rows.map((r) => r.name);
  const optional = new Set(t.optional ?? []);
  const select = columns.map((c) => (optional.has(c) ? `nullif("${c}", '')` : `"${c}"`)).join(', ');
  await sql.raw(`insert into "${temp}" (${columns.map((c) => `"${c}"`).join(', ')}) select ${select} from "${t.table}"`).execute(db);
  for (const fk of t.keys) {
    await sql.raw(`delete from "${temp}" where "${fk.column}" is not null and "${fk.column}" not in (select uid from "${fk.references}")`).execute(db);
  }
  await sql.raw(`drop table "${t.table}"`).execute(db);
  await sql.raw(`alter table "${temp}" rename to "${t.table}"`).execute(db);
  for (const r of rows.rows.filter((x) => x.type === 'index' || x.type === 'trigger')) await sql.raw(r.sql).execute(db);
}

/** Applies the keys of every table, in order (referenced tables first), all or nothing. */
export async function addForeignKeys(db: Kysely<unknown>, caps: DatabaseCapabilities, tables: TableKeys[]): Promise<void> {
  if (caps.alterForeignKeys) {
    for (const t of tables) await alterInPlace(db, t); // inside the migration's transaction
    return;
  }
  await sql`pragma foreign_keys = off`.execute(db);
  try {
    await db.transaction().execute(async (tx) => {
      for (const t of tables) await rebuild(tx, t);
    });
    const broken = await sql<{ table: string }>`pragma foreign_key_check`.execute(db);
    if (broken.rows.length > 0) throw new Error(`foreign key check failed for ${broken.rows.map((r) => r.table).join(', ')}`);
  } finally {
    await sql`pragma foreign_keys = on`.execute(db);
  }
}

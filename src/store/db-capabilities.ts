// What the running database can do, in one place: the only code that knows
// SQLite from PostgreSQL. Migrations and queries ask this object instead of
// comparing dialect names.
import { type Kysely, PostgresAdapter, type RawBuilder, type SelectQueryBuilder, sql } from 'kysely';
import type { Database } from './database.js';

/**
 * A row lock taken by a SELECT inside a transaction, held to its end. 'share'
 * (PostgreSQL FOR KEY SHARE) lets other 'share' holders and ordinary updates
 * through and waits only for an 'exclusive' one; 'exclusive' (FOR UPDATE)
 * waits for every other lock on the row and keeps them all out.
 */
export type RowLock = 'share' | 'exclusive';

/** The part of a SELECT builder a row lock is added to (Kysely's SelectQueryBuilder). */
export interface LockableQuery<Q> {
  forKeyShare(): Q;
  forUpdate(): Q;
}

/** The part of a SELECT builder FOR UPDATE SKIP LOCKED is added to (Kysely's SelectQueryBuilder). */
export interface ClaimableQuery<Q> {
  forUpdate(): Q;
  skipLocked(): Q;
}

/** A foreign key pointing at a table: the referencing table and column. */
export interface Reference {
  tbl: string;
  col: string;
}

export interface DatabaseCapabilities {
  readonly kind: 'sqlite' | 'postgres';
  /** SELECT … FOR UPDATE SKIP LOCKED, so several workers can claim rows; SQLite has one writer instead. */
  readonly skipLocked: boolean;
  /** ALTER TABLE … ADD CONSTRAINT FOREIGN KEY; without it a table is rebuilt to gain one. */
  readonly alterForeignKeys: boolean;
  /**
   * Whether a row's short columns are read without its long ones: PostgreSQL
   * keeps long text out of line (TOAST); SQLite stores columns in order, so a
   * short column after a long text is reached through the text's overflow
   * pages, and an index holding the short ones serves them instead.
   */
  readonly readsShortColumnsApart: boolean;
  /** Type of key and name columns: compared byte by byte, so '/' sorts just before '0' and uid ranges hold. */
  keyText(): RawBuilder<unknown>;
  /** Type of an auto-incrementing integer primary key. */
  readonly serialType: 'bigserial' | 'integer';
  /** Type of a column of raw bytes (read back as a Uint8Array on both). */
  readonly bytesType: 'blob' | 'bytea';
  /** Whether that key also needs AUTOINCREMENT (SQLite, so ids are never reused). */
  readonly serialNeedsAutoIncrement: boolean;
  /** Once per database: what version triggers call (PostgreSQL: a trigger function). */
  createVersionFunction(db: Kysely<unknown>): Promise<void>;
  /** Triggers bumping `table`'s row in table_versions after every write to it. */
  createVersionTriggers(db: Kysely<unknown>, table: string): Promise<void>;
  /**
   * Once per database (migration 0019): lets concurrent writers of one table
   * bump different rows of its version, so they do not queue on one row lock
   * held to each one's commit. PostgreSQL: a row per table and connection
   * slot (a table's version is the sum of its rows); SQLite has one writer,
   * so nothing to do.
   */
  shardTableVersions(db: Kysely<unknown>): Promise<void>;
  /** Foreign keys onto `table` whose ON DELETE forbids deleting a referenced row (RESTRICT / NO ACTION). */
  restrictingReferences(db: Kysely<unknown>, table: string): Promise<Reference[]>;
  /**
   * A text column written so the planner will neither search an index on it
   * nor read its statistics, for queries that must walk another index and
   * filter. SQLite: +column. PostgreSQL: column || '' (same collation, so the
   * same comparisons): a range on it is estimated alike with values and with
   * parameters, so a prepared statement keeps one generic plan instead of
   * being planned again on every execution (keyset-page.ts says when).
   */
  readonly unindexed: (column: string) => RawBuilder<string>;
  /**
   * The SELECT `q` with row lock `mode`. PostgreSQL locks the rows read;
   * SQLite has no row locks and needs none: a transaction holds the
   * database's one write lock from BEGIN IMMEDIATE to its end (sqlite-driver.ts),
   * so every transaction is alone among writers and `q` is returned as is.
   */
  lockRows<Q extends LockableQuery<Q>>(q: Q, mode: RowLock): Q;
  /**
   * The SELECT `q` claiming what it reads for the rest of the transaction and
   * passing over rows another transaction claimed (PostgreSQL FOR UPDATE SKIP
   * LOCKED), so workers on several instances take disjoint rows; SQLite runs
   * one writing transaction at a time, so `q` is returned as is (check
   * `skipLocked` to know whether several workers can claim at once).
   */
  claimRows<Q extends ClaimableQuery<Q>>(q: Q): Q;
  /**
   * The rows the planner expects `q` to return, from its statistics, without
   * running it (PostgreSQL: EXPLAIN's row estimate); absent where the
   * database keeps no statistics (SQLite), so a count is exact there.
   */
  // biome-ignore lint/suspicious/noExplicitAny: any table's query
  readonly estimateRows?: (q: SelectQueryBuilder<any, any, any>) => Promise<number>;
  /**
   * For a process that bulk-writes (berth advisories import): a page cache of
   * `mib` on the connection of `ex`, so random-order index inserts stay in
   * memory (SQLite's default is 2 MiB); PostgreSQL's shared buffers are the
   * server's, nothing to do.
   */
  bulkWriteCache(ex: Kysely<Database>, mib: number): Promise<void>;
  /**
   * One statement answering the current snapshot (as `snapshot`) and, only
   * when it differs from `$1`, each table's version (`table_name`,
   * `version`, a row per table): an unchanged snapshot means the same
   * transactions committed, so the same versions (table-versions.ts).
   * PostgreSQL: pg_current_snapshot(), the sum behind a one-time filter;
   * absent on SQLite, whose data_version tells the same without a statement.
   */
  readonly snapshotGatedVersionsSql?: string;
}

export const SQLITE: DatabaseCapabilities = {
  kind: 'sqlite',
  skipLocked: false,
  alterForeignKeys: false,
  readsShortColumnsApart: false,
  keyText: () => sql`text`, // SQLite's default BINARY collation already compares bytes
  serialType: 'integer',
  bytesType: 'blob',
  serialNeedsAutoIncrement: true,
  createVersionFunction: async () => undefined, // SQLite triggers carry their own body
  shardTableVersions: async () => undefined,
  async createVersionTriggers(db, table) {
    for (const op of ['insert', 'update', 'delete']) {
      await sql`create trigger ${sql.raw(`${table}_version_${op}`)} after ${sql.raw(op)} on ${sql.table(table)}
        begin update table_versions set version = version + 1 where table_name = ${sql.lit(table)}; end`.execute(db);
    }
  },
  async restrictingReferences(db, table) {
    const r = await sql<Reference>`select m.name as tbl, f."from" as col
      from sqlite_master m join pragma_foreign_key_list(m.name) f
      where m.type = 'table' and f."table" = ${table} and upper(f.on_delete) in ('RESTRICT', 'NO ACTION')
      order by m.name`.execute(db);
    return r.rows;
  },
  unindexed: (column) => sql<string>`+${sql.ref(column)}`,
  lockRows: (q) => q,
  claimRows: (q) => q,
  async bulkWriteCache(ex, mib) {
    await sql`pragma cache_size = ${sql.lit(-Math.round(mib * 1024))}`.execute(ex);
  },
};

/**
 * Rows a PostgreSQL table's version is spread over: more than the pool's
 * connections make collisions rare; each is a row every request's version
 * read sums.
 */
const VERSION_SHARDS = 16;

export const POSTGRES: DatabaseCapabilities = {
  snapshotGatedVersionsSql:
    'select s.snapshot, v.table_name, v.version from (select pg_current_snapshot()::text as snapshot) s ' +
    'left join lateral (select table_name, sum(version) as version from table_versions where s.snapshot <> $1 group by table_name) v on true',
  kind: 'postgres',
  skipLocked: true,
  alterForeignKeys: true,
  readsShortColumnsApart: true,
  keyText: () => sql`text collate "C"`,
  serialType: 'bigserial',
  bytesType: 'bytea',
  serialNeedsAutoIncrement: false,
  async createVersionFunction(db) {
    await sql`create function berth_bump_table_version() returns trigger language plpgsql as $$
      begin
        update table_versions set version = version + 1 where table_name = TG_TABLE_NAME;
        return null;
      end $$`.execute(db);
  },
  async shardTableVersions(db) {
    await sql`alter table table_versions add column shard integer not null default 0`.execute(db);
    await sql`alter table table_versions drop constraint table_versions_pkey`.execute(db);
    await sql`alter table table_versions add primary key (table_name, shard)`.execute(db);
    // A connection bumps the row of its slot (its server process id mod VERSION_SHARDS), made on
    // first use: concurrent writers of a table mostly hold different rows, and a reader sums them.
    await sql`create or replace function berth_bump_table_version() returns trigger language plpgsql as $$
      begin
        insert into table_versions (table_name, shard, version) values (TG_TABLE_NAME, pg_backend_pid() % ${sql.lit(VERSION_SHARDS)}, 1)
          on conflict (table_name, shard) do update set version = table_versions.version + 1;
        return null;
      end $$`.execute(db);
  },
  async createVersionTriggers(db, table) {
    // One bump per statement, not per row.
    await sql`create trigger ${sql.raw(`${table}_version`)} after insert or update or delete on ${sql.table(table)}
      for each statement execute function berth_bump_table_version()`.execute(db);
  },
  async restrictingReferences(db, table) {
    const r = await sql<Reference>`select cl.relname as tbl, a.attname as col
      from pg_constraint c
      join pg_class cl on cl.oid = c.conrelid
      join pg_attribute a on a.attrelid = c.conrelid and a.attnum = c.conkey[1]
      where c.contype = 'f' and c.confrelid = ${table}::regclass and c.confdeltype in ('r', 'a')
      order by cl.relname`.execute(db);
    return r.rows;
  },
  unindexed: (column) => sql<string>`(${sql.ref(column)} || '')`,
  lockRows: (q, mode) => (mode === 'exclusive' ? q.forUpdate() : q.forKeyShare()),
  claimRows: (q) => q.forUpdate().skipLocked(),
  async estimateRows(q) {
    const [row] = await q.explain<{ 'QUERY PLAN': Array<{ Plan: { 'Plan Rows': number } }> }>('json');
    return row['QUERY PLAN'][0].Plan['Plan Rows'];
  },
  bulkWriteCache: async () => undefined,
};

/**
 * The capabilities of the database behind `ex` (the store's Kysely or a
 * transaction), for data functions that are handed only a transaction.
 */
export function capabilitiesOf(ex: { getExecutor(): { adapter: unknown } }): DatabaseCapabilities {
  return ex.getExecutor().adapter instanceof PostgresAdapter ? POSTGRES : SQLITE;
}

// What the running database can do, in one place: the only code that knows
// SQLite from PostgreSQL. Migrations and queries ask this object instead of
// comparing dialect names.
import { sql, type RawBuilder } from 'kysely';

export interface DatabaseCapabilities {
  readonly kind: 'sqlite' | 'postgres';
  /** INSERT/UPDATE/DELETE … RETURNING. */
  readonly returning: boolean;
  /** How an upsert is written: INSERT … ON CONFLICT (…) DO … on both. */
  readonly upsert: 'on-conflict';
  /** SELECT … FOR UPDATE SKIP LOCKED, so several workers can claim rows; SQLite has one writer instead. */
  readonly skipLocked: boolean;
  /** Session advisory locks (pg_advisory_lock), e.g. Kysely's migration lock. */
  readonly advisoryLocks: boolean;
  /** ALTER TABLE … ADD CONSTRAINT FOREIGN KEY; without it a table is rebuilt to gain one. */
  readonly alterForeignKeys: boolean;
  /** DDL runs inside a transaction and rolls back with it. */
  readonly transactionalDdl: boolean;
  /** Type of key and name columns: compared byte by byte, so '/' sorts just before '0' and uid ranges hold. */
  keyText(): RawBuilder<unknown>;
  /** Type of an auto-incrementing integer primary key. */
  readonly serialType: 'bigserial' | 'integer';
  /** Whether that key also needs AUTOINCREMENT (SQLite, so ids are never reused). */
  readonly serialNeedsAutoIncrement: boolean;
  /**
   * A column written so the planner will not search an index on it (SQLite:
   * +column), for queries that must walk another index and filter; absent
   * where the planner weighs each condition's selectivity from statistics and
   * chooses well by itself (PostgreSQL).
   */
  readonly unindexed?: (column: string) => RawBuilder<string>;
}

export const SQLITE: DatabaseCapabilities = {
  kind: 'sqlite',
  returning: true,
  upsert: 'on-conflict',
  skipLocked: false,
  advisoryLocks: false,
  alterForeignKeys: false,
  transactionalDdl: true,
  keyText: () => sql`text`, // SQLite's default BINARY collation already compares bytes
  serialType: 'integer',
  serialNeedsAutoIncrement: true,
  unindexed: (column) => sql<string>`+${sql.ref(column)}`,
};

export const POSTGRES: DatabaseCapabilities = {
  kind: 'postgres',
  returning: true,
  upsert: 'on-conflict',
  skipLocked: true,
  advisoryLocks: true,
  alterForeignKeys: true,
  transactionalDdl: true,
  keyText: () => sql`text collate "C"`,
  serialType: 'bigserial',
  serialNeedsAutoIncrement: false,
};

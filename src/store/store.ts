// Opens the database: an embedded SQLite file by default, PostgreSQL when a
// postgres:// URL is given. What differs between them is in `caps`
// (db-capabilities.ts); nothing outside this folder asks which one it is.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { Kysely, sql } from 'kysely';
import pg from 'pg';
import type { Logger } from 'pino';
import type { Database } from './database.js';
import { connectionProblem } from './connection-problem.js';
import { migrate } from './migrate.js';
import { resilientPool } from './postgres-pool.js';
import { PooledPostgresDialect } from './pooled-reads.js';
import { PreparedStatementNames } from './postgres-prepared.js';
import { ensurePrivateFile, narrowIfPresent } from './private-files.js';
import { SqliteFileDialect } from './sqlite-driver.js';
import { publishPoolUsage, queryLog } from './store-metrics.js';
import { POSTGRES, SQLITE, type DatabaseCapabilities } from './db-capabilities.js';

export interface Store {
  db: Kysely<Database>;
  caps: DatabaseCapabilities;
  close(): Promise<void>;
}

export interface StoreOptions {
  /** postgres://… URL; empty for SQLite. */
  databaseUrl?: string;
  /** Directory of the SQLite file. */
  dataDir: string;
  /** Pool size for PostgreSQL. */
  poolSize?: number;
  /** Where connections the database ended are reported. */
  logger?: Logger;
}

// A connection attempt is bounded, so a request waiting for one (server
// unreachable, pool exhausted) becomes UNAVAILABLE instead of hanging.
const PG_CONNECT_TIMEOUT_MS = 5_000;

// int8 (count(*)) as a number, for this pool only: pg's global type table is
// left as it is for whatever else shares the process.
const PG_TYPES = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
    oid === 20 && format !== 'binary' ? (v: string) => Number(v) : pg.types.getTypeParser(oid, format as 'text')) as typeof pg.types.getTypeParser,
};

export function describeDatabase(opts: StoreOptions): string {
  if (opts.databaseUrl) {
    const u = new URL(opts.databaseUrl);
    return `postgres://${u.host}${u.pathname}`; // never print credentials
  }
  return join(opts.dataDir, 'berth.db');
}

export async function openStore(opts: StoreOptions): Promise<Store> {
  let store: Store;
  let prepared: PreparedStatementNames | undefined;
  if (opts.databaseUrl && /^postgres(ql)?:\/\//.test(opts.databaseUrl)) {
    const pool = new pg.Pool({
      connectionString: opts.databaseUrl,
      max: opts.poolSize ?? 10,
      connectionTimeoutMillis: PG_CONNECT_TIMEOUT_MS,
      keepAlive: true,
      types: PG_TYPES,
    });
    const onLost = (err: Error) => opts.logger?.warn({ err: { message: err.message, code: (err as { code?: string }).code } }, 'database connection lost');
    prepared = new PreparedStatementNames();
    const db = new Kysely<Database>({ dialect: new PooledPostgresDialect(resilientPool(pool, onLost, prepared)), log: queryLog() });
    publishPoolUsage(() => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount }));
    store = { db, caps: POSTGRES, close: () => db.destroy() };
  } else if (opts.databaseUrl) {
    throw new Error(`unsupported --database URL (expected postgres://…): ${opts.databaseUrl.split(':')[0]}:`);
  } else {
    mkdirSync(opts.dataDir, { recursive: true, mode: 0o700 });
    const file = join(opts.dataDir, 'berth.db');
    ensurePrivateFile(file); // it holds the signing keys
    narrowIfPresent(`${file}-wal`, `${file}-shm`, `${file}-journal`);
    const dialect = new SqliteFileDialect(file, opts.logger);
    const db = new Kysely<Database>({ dialect, log: queryLog() });
    publishPoolUsage(() => ({ waiting: dialect.writersWaiting() }));
    store = { db, caps: SQLITE, close: () => db.destroy() };
  }
  try {
    // Connect first, so that a server that cannot be reached or refuses us is
    // reported as that, not as a failed migration.
    if (opts.databaseUrl) await reachable(store, opts.databaseUrl);
    await migrate(store);
  } catch (err) {
    await store.close();
    throw err;
  }
  prepared?.enable();
  return store;
}

async function reachable(store: Store, databaseUrl: string): Promise<void> {
  try {
    await sql`select 1`.execute(store.db);
  } catch (err) {
    throw connectionProblem(err, databaseUrl) ?? err;
  }
}

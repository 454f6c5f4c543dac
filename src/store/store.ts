// Opens the database: an embedded SQLite file by default, PostgreSQL when a
// postgres:// URL is given. Dialect differences end in this folder.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { Kysely, PostgresDialect } from 'kysely';
import pg from 'pg';
import type { Logger } from 'pino';
import type { Database } from './schema.js';
import { migrate } from './migrate.js';
import { resilientPool } from './postgres-pool.js';
import { ensurePrivateFile, narrowIfPresent } from './private-files.js';
import { SqliteFileDialect } from './sqlite-driver.js';
import { withFileLock } from './file-lock.js';

export type Dialect = 'sqlite' | 'postgres';

export interface Store {
  db: Kysely<Database>;
  dialect: Dialect;
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

export function describeDatabase(opts: StoreOptions): string {
  if (opts.databaseUrl) {
    const u = new URL(opts.databaseUrl);
    return `postgres://${u.host}${u.pathname}`; // never print credentials
  }
  return join(opts.dataDir, 'berth.db');
}

export async function openStore(opts: StoreOptions): Promise<Store> {
  let store: Store;
  if (opts.databaseUrl && /^postgres(ql)?:\/\//.test(opts.databaseUrl)) {
    // int8 (count(*)) comes back as a string unless told otherwise.
    pg.types.setTypeParser(20, (v) => Number(v));
    const pool = new pg.Pool({ connectionString: opts.databaseUrl, max: opts.poolSize ?? 10, connectionTimeoutMillis: PG_CONNECT_TIMEOUT_MS, keepAlive: true });
    const onLost = (err: Error) => opts.logger?.warn({ err: { message: err.message, code: (err as { code?: string }).code } }, 'database connection lost');
    const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool: resilientPool(pool, onLost) }) });
    store = { db, dialect: 'postgres', close: () => db.destroy() };
  } else if (opts.databaseUrl) {
    throw new Error(`unsupported --database URL (expected postgres://…): ${opts.databaseUrl.split(':')[0]}:`);
  } else {
    mkdirSync(opts.dataDir, { recursive: true, mode: 0o700 });
    const file = join(opts.dataDir, 'berth.db');
    ensurePrivateFile(file); // it holds the signing keys
    narrowIfPresent(`${file}-wal`, `${file}-shm`, `${file}-journal`);
    const db = new Kysely<Database>({ dialect: new SqliteFileDialect(file) });
    store = { db, dialect: 'sqlite', close: () => db.destroy() };
  }
  try {
    if (store.dialect === 'sqlite') await withFileLock(join(opts.dataDir, 'berth.db.migrate-lock'), () => migrate(store));
    else await migrate(store);
  } catch (err) {
    await store.close();
    throw err;
  }
  return store;
}

// One connection to the SQLite file through Node's built-in node:sqlite.
// Chosen over better-sqlite3, whose statements aborted the process during
// garbage collection under Node.js 24.21 (measured: the server died within
// seconds of start), and which needed a native build on install.
import { DatabaseSync, type StatementSync } from 'node:sqlite';
import { setRecent } from '../core/recent-map.js';

export type Param = null | number | bigint | string | NodeJS.ArrayBufferView;

export interface CachedStatement {
  stmt: StatementSync;
  /** Returns rows (SELECT, RETURNING): run with all(), else with stmt.run(). */
  reader: boolean;
  /** Every row, as an object keyed by column name. */
  all(params: readonly Param[]): Record<string, unknown>[];
}

// Rows are fetched as arrays and copied into plain objects by a loop over the
// statement's column names: node:sqlite's own row objects have no prototype
// (PostgreSQL's rows do) and were slower to build. A column named __proto__
// is defined as a property, as assigning it would set the prototype.
function rowsAsObjects(stmt: StatementSync): (params: readonly Param[]) => Record<string, unknown>[] {
  const names = stmt.columns().map((c) => c.name);
  const set = names.includes('__proto__') ? defineEach : assignEach;
  stmt.setReturnArrays(true);
  return (params) => (stmt.all(...params) as unknown as unknown[][]).map((values) => set(names, values));
}

function assignEach(names: readonly string[], values: readonly unknown[]): Record<string, unknown> {
  const row: Record<string, unknown> = {};
  for (let i = 0; i < names.length; i++) row[names[i]] = values[i];
  return row;
}

function defineEach(names: readonly string[], values: readonly unknown[]): Record<string, unknown> {
  const row: Record<string, unknown> = {};
  for (let i = 0; i < names.length; i++) Object.defineProperty(row, names[i], { value: values[i], enumerable: true, writable: true, configurable: true });
  return row;
}

export interface SqliteConnection {
  db: DatabaseSync;
  prepare(sql: string): CachedStatement;
  close(): void;
}

// Prepared statements are kept by SQL text: preparing was a visible share of a
// request (docs/performance.md).
const STATEMENT_CACHE = 500;

export function openSqliteConnection(file: string, opts: { busyTimeoutMs: number; queryOnly?: boolean }): SqliteConnection {
  const db = new DatabaseSync(file, { timeout: opts.busyTimeoutMs }); // busy timeout, before any statement
  if (opts.queryOnly) db.exec('PRAGMA query_only = ON');
  db.exec('PRAGMA foreign_keys = ON');
  const cache = new Map<string, CachedStatement>();
  return {
    db,
    close: () => db.close(),
    prepare: (sql) => {
      let entry = cache.get(sql);
      if (!entry) {
        const stmt = db.prepare(sql);
        const reader = stmt.columns().length > 0;
        entry = { stmt, reader, all: reader ? rowsAsObjects(stmt) : () => [] };
        setRecent(cache, sql, entry, STATEMENT_CACHE);
      }
      return entry;
    },
  };
}

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

// node:sqlite builds each row object through V8's API one property at a time.
// Rows are fetched as arrays instead and turned into objects by a function
// made once per statement from its column names (an object literal: one
// shape, no keyed stores): 45 → 35 µs for a 51-row page of repos. The names
// are the statement's own columns, written into the literal as JSON strings.
function rowsAsObjects(stmt: StatementSync): (params: readonly Param[]) => Record<string, unknown>[] {
  const names = stmt.columns().map((c) => c.name);
  if (names.includes('__proto__')) return (params) => stmt.all(...params) as Record<string, unknown>[]; // a literal would set the prototype
  stmt.setReturnArrays(true);
  const fields = names.map((name, i) => `${JSON.stringify(name)}: r[${i}]`);
  const toObject = new Function('r', `return { ${fields.join(', ')} };`) as (r: unknown[]) => Record<string, unknown>;
  return (params) => (stmt.all(...params) as unknown as unknown[][]).map(toObject);
}

export interface SqliteConnection {
  db: DatabaseSync;
  prepare(sql: string): CachedStatement;
  close(): void;
}

// Prepared statements are kept by SQL text: preparing was 7% of a request.
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

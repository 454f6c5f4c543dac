// Node's built-in SQLite (node:sqlite) behind the small interface Kysely's
// SqliteDialect drives. Chosen over better-sqlite3, whose statements aborted the
// process during garbage collection under Node.js 24.21 (measured: the server
// died within seconds of start), and which needed a native build on install.
import { DatabaseSync, type StatementSync } from 'node:sqlite';
import type { SqliteDatabase, SqliteStatement } from 'kysely';

type Param = null | number | bigint | string | NodeJS.ArrayBufferView;

function wrap(stmt: StatementSync): SqliteStatement {
  const reader = stmt.columns().length > 0;
  return {
    reader,
    all: (params) => stmt.all(...(params as Param[])),
    run: (params) => {
      const r = stmt.run(...(params as Param[]));
      return { changes: r.changes, lastInsertRowid: r.lastInsertRowid };
    },
    iterate: (params) => stmt.iterate(...(params as Param[])) as IterableIterator<unknown>,
  };
}

// Prepared statements are kept by SQL text: preparing was 7% of a request.
const STATEMENT_CACHE = 500;

export function openSqlite(file: string): SqliteDatabase {
  const db = new DatabaseSync(file, { timeout: 10_000 }); // busy timeout, before any statement
  db.exec('PRAGMA journal_mode = WAL');
  db.exec('PRAGMA synchronous = NORMAL');
  db.exec('PRAGMA foreign_keys = ON');
  const cache = new Map<string, SqliteStatement>();
  return {
    close: () => db.close(),
    // Transactions take the write lock when they begin: a deferred one that
    // later writes fails at once with "database is locked" when another
    // process (several instances may share the file) wrote in between.
    prepare: (sql) => {
      let stmt = cache.get(sql);
      if (!stmt) {
        stmt = wrap(db.prepare(/^\s*begin\s*$/i.test(sql) ? 'begin immediate' : sql));
        if (cache.size >= STATEMENT_CACHE) cache.delete(cache.keys().next().value as string);
        cache.set(sql, stmt);
      }
      return stmt;
    },
  };
}

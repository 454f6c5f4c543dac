// Rows read through node:sqlite come back as arrays and are copied into
// plain objects by a loop (src/store/sqlite-database.ts, no code generated):
// they must hold what node:sqlite's own row objects held.
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { openSqliteConnection } from '../../src/store/sqlite-database.js';

describe('SQLite rows', () => {
  const conn = openSqliteConnection(join(mkdtempSync(join(tmpdir(), 'berth-rows-')), 'rows.db'), { busyTimeoutMs: 0 });
  conn.db.exec(`create table t (a text, "b c" integer, d blob, e real)`);
  conn.db.exec(`insert into t values ('x', 7, x'0102', 1.5), (null, null, null, null)`);

  it('keep every column under its name, with its value and type', () => {
    const rows = conn.prepare('select a, "b c", d, e from t order by rowid').all([]);
    assert.equal(rows.length, 2);
    assert.deepEqual(Object.keys(rows[0]), ['a', 'b c', 'd', 'e']);
    assert.equal(Object.getPrototypeOf(rows[0]), Object.prototype, 'a plain object, as PostgreSQL rows are');
    assert.equal(rows[0].a, 'x');
    assert.equal(rows[0]['b c'], 7);
    assert.deepEqual([...(rows[0].d as Uint8Array)], [1, 2]);
    assert.equal(rows[0].e, 1.5);
    assert.deepEqual(Object.values(rows[1]), [null, null, null, null]);
  });

  it('take parameters, and return no rows as an empty list', () => {
    assert.deepEqual(conn.prepare('select a from t where a = ?').all(['x']), [{ a: 'x' }]);
    assert.deepEqual(conn.prepare('select a from t where a = ?').all(['none']), []);
  });

  it('keep a column named __proto__ as a column, not the prototype', () => {
    const [row] = conn.prepare(`select 'v' as "__proto__", 1 as n`).all([]);
    assert.equal(Object.getPrototypeOf(row) === null || Object.getPrototypeOf(row) === Object.prototype, true);
    assert.equal(Object.getOwnPropertyDescriptor(row, '__proto__')?.value, 'v');
    assert.equal(row.n, 1);
  });

  it('give a repeated column name the last value, as node:sqlite does', () => {
    const [row] = conn.prepare(`select 1 as k, 2 as k`).all([]);
    assert.deepEqual(row, { k: 2 });
  });
});

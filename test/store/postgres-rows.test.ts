// Rows read through pg are built by a function generated per column list
// (src/store/pg-statement.ts): they must hold what pg's own row objects held —
// every column under its name, parsed by its type, nulls as null, odd names
// (spaces, quotes, "__proto__") as plain keys — and a simple query of several
// statements still runs them all. PostgreSQL only.
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { sql } from 'kysely';
import { openStore, type Store } from '../../src/store/store.js';
import { dropDatabase, freshDatabase, usingPostgres } from '../harness/berth-process.js';

describe('PostgreSQL rows', { skip: !usingPostgres() && 'PostgreSQL only' }, () => {
  let store: Store;
  let url: string | undefined;

  before(async () => {
    url = await freshDatabase();
    store = await openStore({ databaseUrl: url, dataDir: mkdtempSync(join(tmpdir(), 'berth-pgrows-')), poolSize: 1 });
    await sql`create table scratch (a text, "b c" integer, "q""uote" boolean, n bigint, t timestamptz, j jsonb)`.execute(store.db);
    await sql`insert into scratch values ('x', 7, true, 42, '2026-01-02T03:04:05.678Z', '{"k": [1]}'), (null, null, null, null, null, null)`.execute(store.db);
  });
  after(async () => {
    await store.close();
    await dropDatabase(url);
  });

  it('keep every column under its name, parsed by its type', async () => {
    const { rows } = await sql<Record<string, unknown>>`select a, "b c", "q""uote", n, t, j from scratch order by a nulls last`.execute(store.db);
    assert.equal(rows.length, 2);
    assert.deepEqual(Object.keys(rows[0]), ['a', 'b c', 'q"uote', 'n', 't', 'j']);
    assert.equal(Object.getPrototypeOf(rows[0]), Object.prototype);
    assert.equal(rows[0].a, 'x');
    assert.equal(rows[0]['b c'], 7);
    assert.equal(rows[0]['q"uote'], true);
    assert.equal(rows[0].n, 42, "int8 as the store's pool reads it (a number: src/store/store.ts)");
    assert.equal((rows[0].t as Date).toISOString(), '2026-01-02T03:04:05.678Z');
    assert.deepEqual(rows[0].j, { k: [1] });
    assert.deepEqual(Object.values(rows[1]), [null, null, null, null, null, null]);
  });

  it('the same column list read again, and another list, each get their own shape', async () => {
    const first = await sql<Record<string, unknown>>`select a, "b c" from scratch where a = ${'x'}`.execute(store.db);
    const again = await sql<Record<string, unknown>>`select a, "b c" from scratch where a = ${'x'}`.execute(store.db);
    const other = await sql<Record<string, unknown>>`select "b c", a from scratch where a = ${'x'}`.execute(store.db);
    assert.deepEqual(first.rows, [{ a: 'x', 'b c': 7 }]);
    assert.deepEqual(again.rows, first.rows);
    assert.deepEqual(Object.keys(other.rows[0]), ['b c', 'a']);
  });

  it('a column named __proto__ is a plain key, not the prototype', async () => {
    const { rows } = await sql<Record<string, unknown>>`select 1 as "__proto__", 2 as "constructor"`.execute(store.db);
    assert.equal(Object.getPrototypeOf(rows[0]), Object.prototype);
    assert.ok(Object.hasOwn(rows[0], '__proto__'));
    assert.equal(Object.getOwnPropertyDescriptor(rows[0], '__proto__')?.value, 1);
    assert.equal(rows[0].constructor, 2);
  });

  it('a repeated column name keeps the last value, as pg does', async () => {
    const { rows } = await sql<Record<string, unknown>>`select 1 as x, 2 as x`.execute(store.db);
    assert.deepEqual(rows, [{ x: 2 }]);
  });

  it('no rows, and a statement without a result, answer as before', async () => {
    const none = await sql<Record<string, unknown>>`select a from scratch where a = ${'none'}`.execute(store.db);
    assert.deepEqual(none.rows, []);
    const update = await sql`update scratch set "b c" = 8 where a = ${'x'}`.execute(store.db);
    assert.equal(update.numAffectedRows, 1n);
  });

  it('a simple query of several statements runs them all', async () => {
    await sql.raw('create table multi_a (x int); create table multi_b (y int)').execute(store.db);
    const { rows } = await sql<{ n: number }>`select count(*) as n from pg_tables where tablename in ('multi_a', 'multi_b')`.execute(store.db);
    assert.deepEqual(rows, [{ n: 2 }]);
  });
});

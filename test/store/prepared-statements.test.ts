// On PostgreSQL the store prepares the statements it runs (a named statement
// is parsed and planned once per connection instead of on every execution),
// within a bound, and a prepared statement outlives nothing it should not: a
// connection the server ends takes its statements with it, and the next
// connection prepares them again. PostgreSQL only: SQLite's statements are
// prepared by its driver.
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { sql } from 'kysely';
import { openStore, type Store } from '../../src/store/store.js';
import { transact } from '../../src/store/transact.js';
import { dropDatabase, freshDatabase, usingPostgres } from '../harness/berth-process.js';

describe('prepared statements', { skip: !usingPostgres() && 'PostgreSQL only' }, () => {
  let store: Store;
  let url: string | undefined;

  before(async () => {
    url = await freshDatabase();
    store = await openStore({ databaseUrl: url, dataDir: mkdtempSync(join(tmpdir(), 'berth-prepared-')), poolSize: 1 });
    await sql`create table scratch (name text primary key, hits integer not null)`.execute(store.db);
  });
  after(async () => {
    await store.close();
    await dropDatabase(url);
  });

  /** The statements prepared on the pool's one connection whose text mentions `scratch`. */
  async function preparedOnScratch(): Promise<string[]> {
    const rows = await sql<{
      statement: string;
    }>`select statement from pg_prepared_statements where statement like ${'%scratch%'} and statement not like ${'%pg_prepared_statements%'} order by statement`.execute(
      store.db,
    );
    return rows.rows.map((r) => r.statement);
  }

  it('prepares a repeated statement once and runs it with new parameters', async () => {
    for (const [name, hits] of [
      ['a', 1],
      ['b', 2],
      ['c', 3],
    ] as const) {
      await store.db
        .insertInto('scratch' as never)
        .values({ name, hits } as never)
        .execute();
    }
    const one = (name: string) =>
      store.db
        .selectFrom('scratch' as never)
        .select(['hits' as never])
        .where('name' as never, '=', name as never)
        .executeTakeFirst() as Promise<{ hits: number } | undefined>;
    assert.deepEqual(await one('a'), { hits: 1 });
    assert.deepEqual(await one('c'), { hits: 3 });
    assert.equal(await one('z'), undefined);
    const prepared = await preparedOnScratch();
    assert.equal(prepared.filter((s) => s.startsWith('select "hits"')).length, 1, prepared.join('\n'));
    assert.equal(prepared.filter((s) => s.startsWith('insert into "scratch"')).length, 1, prepared.join('\n'));
  });

  it('runs statements of a new connection after the server ended the old one', async () => {
    const before = await preparedOnScratch();
    assert.ok(before.length > 0);
    // Ended from another session; the pool's client learns of it on its next statement.
    const other = await openStore({ databaseUrl: url, dataDir: mkdtempSync(join(tmpdir(), 'berth-prepared-')) });
    try {
      await sql`select pg_terminate_backend(pid) from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid()`.execute(other.db);
    } finally {
      await other.close();
    }
    // A read is retried once on a new connection, which prepares it again.
    const row = await store.db
      .selectFrom('scratch' as never)
      .select(['hits' as never])
      .where('name' as never, '=', 'b' as never)
      .executeTakeFirst();
    assert.deepEqual(row, { hits: 2 });
    assert.deepEqual(
      (await preparedOnScratch()).filter((s) => s.startsWith('select "hits"')),
      before.filter((s) => s.startsWith('select "hits"')),
    );
  });

  it('runs statements again after another instance changed a table under them (a rolling upgrade)', async () => {
    const all = () =>
      store.db
        .selectFrom('scratch' as never)
        .selectAll()
        .where('name' as never, '=', 'a' as never)
        .execute();
    assert.deepEqual(await all(), [{ name: 'a', hits: 1 }]);
    // Another process migrates: the prepared `select *` now names a different row type.
    const other = await openStore({ databaseUrl: url, dataDir: mkdtempSync(join(tmpdir(), 'berth-prepared-')) });
    try {
      await sql`alter table scratch add column note text not null default ''`.execute(other.db);
    } finally {
      await other.close();
    }
    assert.deepEqual(await all(), [{ name: 'a', hits: 1, note: '' }]);
    await sql`alter table scratch add column mark integer not null default 0`.execute(store.db);
    const inTransaction = await transact(store, async (tx) => {
      const rows = await tx
        .selectFrom('scratch' as never)
        .selectAll()
        .where('name' as never, '=', 'a' as never)
        .execute();
      await tx
        .updateTable('scratch' as never)
        .set({ hits: 5 } as never)
        .where('name' as never, '=', 'a' as never)
        .execute();
      return rows;
    });
    assert.deepEqual(inTransaction, [{ name: 'a', hits: 1, note: '', mark: 0 }]);
    assert.deepEqual(await all(), [{ name: 'a', hits: 5, note: '', mark: 0 }]);
  });

  it('stops preparing new statement texts once its budget is spent, and still runs them', async () => {
    for (let i = 0; i < 600; i++) {
      const rows = await sql<{ n: number }>`select ${sql.raw(String(i))}::int as n from scratch limit 1`.execute(store.db);
      assert.equal(rows.rows[0]?.n, i);
    }
    const prepared = (await preparedOnScratch()).filter((s) => s.includes('::int as n'));
    assert.ok(prepared.length > 0 && prepared.length < 600, `${prepared.length} of 600 distinct texts prepared`);
    assert.ok(prepared.length <= 512);
  });
});

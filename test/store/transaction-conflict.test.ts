// Two transactions that take the same row locks in opposite orders deadlock on
// PostgreSQL; the database ends one of them (40P01). transact() runs the
// victim again, so both callers get their change committed instead of one
// getting an INTERNAL error for a collision it did not cause. PostgreSQL only:
// SQLite runs one writing transaction at a time and cannot deadlock.
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { sql } from 'kysely';
import { openStore, type Store } from '../../src/store/store.js';
import { transact } from '../../src/store/transact.js';
import { dropDatabase, freshDatabase, usingPostgres } from '../harness/berth-process.js';

describe('transaction conflicts', { skip: !usingPostgres() && 'PostgreSQL only' }, () => {
  let store: Store;
  let url: string | undefined;

  before(async () => {
    url = await freshDatabase();
    store = await openStore({ databaseUrl: url, dataDir: mkdtempSync(join(tmpdir(), 'berth-conflict-')) });
    await sql`create table scratch (name text primary key, hits integer not null)`.execute(store.db);
    await sql`insert into scratch values ('a', 0), ('b', 0)`.execute(store.db);
  });
  after(async () => {
    await store.close();
    await dropDatabase(url);
  });

  it('runs the deadlock victim again, so both transactions commit', async () => {
    let holding = 0;
    let bothHold!: () => void;
    const barrier = new Promise<void>((resolve) => (bothHold = resolve));
    let runs = 0;
    const crosswise = (first: string, second: string) =>
      transact(store, async (tx) => {
        runs++;
        await sql`update scratch set hits = hits + 1 where name = ${first}`.execute(tx);
        if (++holding === 2) bothHold();
        await barrier; // each now holds the row the other wants next
        await sql`update scratch set hits = hits + 1 where name = ${second}`.execute(tx);
        return first;
      });
    const outcomes = await Promise.allSettled([crosswise('a', 'b'), crosswise('b', 'a')]);
    assert.deepEqual(
      outcomes.map((o) => o.status),
      ['fulfilled', 'fulfilled'],
      JSON.stringify(outcomes.map((o) => (o.status === 'rejected' ? String(o.reason) : o.value))),
    );
    assert.equal(runs, 3, 'the deadlock victim ran once more');
    const rows = await sql<{ name: string; hits: number }>`select name, hits from scratch order by name`.execute(store.db);
    assert.deepEqual(rows.rows, [
      { name: 'a', hits: 2 },
      { name: 'b', hits: 2 },
    ]);
  });

  it('does not run a transaction again for an ordinary error', async () => {
    let runs = 0;
    await assert.rejects(
      transact(store, async (tx) => {
        runs++;
        await sql`insert into scratch values ('a', 0)`.execute(tx); // duplicate key: wrong, not a collision
      }),
      (err: { code?: string }) => err.code === '23505',
    );
    assert.equal(runs, 1);
  });
});

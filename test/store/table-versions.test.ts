// Table versions (src/store/table-versions.ts) key every cache a request
// consults: each committed write to a versioned table must move its version
// on the very next read. On PostgreSQL the version is spread over a row per
// connection slot (migration 0019), so writers of one table on different
// connections no longer wait for each other's commit: before, the trigger's
// update of the table's one row was held to the commit and every writer of
// the table took turns.
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { type Kysely, sql } from 'kysely';
import pg from 'pg';
import { openStore, type Store } from '../../src/store/store.js';
import { readTableVersions } from '../../src/store/table-versions.js';
import { transact } from '../../src/store/transact.js';
import { versionTable } from '../../src/store/versioned-table.js';
import { dropDatabase, freshDatabase, usingPostgres } from '../harness/berth-process.js';

describe('table versions', () => {
  let store: Store;
  let url: string | undefined;

  before(async () => {
    url = await freshDatabase();
    store = await openStore({ databaseUrl: url, dataDir: mkdtempSync(join(tmpdir(), 'berth-versions-')) });
    await sql`create table scratch (name text primary key)`.execute(store.db);
    await versionTable(store.db as unknown as Kysely<unknown>, store.caps, 'scratch');
  });
  after(async () => {
    await store.close();
    await dropDatabase(url);
  });

  const version = async () => BigInt((await readTableVersions(store.db)).get('scratch') ?? '-1');

  it('moves a table version with every committed write, on the very next read, and not with a rolled-back one', async () => {
    const v0 = await version();
    assert.equal(v0, 0n);
    for (let i = 1; i <= 3; i++) {
      await transact(store, (tx) => sql`insert into scratch values (${`row-${i}`})`.execute(tx));
      assert.equal(await version(), v0 + BigInt(i));
    }
    await assert.rejects(
      transact(store, async (tx) => {
        await sql`insert into scratch values ('rolled-back')`.execute(tx);
        throw new Error('refused');
      }),
      /refused/,
    );
    assert.equal(await version(), v0 + 3n);
  });

  it('lets writers of one table on two connections commit without waiting for each other', { skip: !usingPostgres() && 'PostgreSQL only' }, async () => {
    // Two connections in different slots (pg_backend_pid() mod the slot count): open more until they differ.
    const clients: pg.Client[] = [];
    const slot = async (c: pg.Client) => Number((await c.query('select pg_backend_pid() % 16 as s')).rows[0].s);
    try {
      const first = new pg.Client({ connectionString: url });
      await first.connect();
      clients.push(first);
      let second: pg.Client | undefined;
      while (!second) {
        const c = new pg.Client({ connectionString: url });
        await c.connect();
        clients.push(c);
        if ((await slot(c)) !== (await slot(first))) second = c;
      }
      const before = await version();
      await first.query('begin');
      await first.query("insert into scratch values ('first')");
      // The first transaction is still open. Before the version rows were spread, this insert waited for it.
      await second.query("set lock_timeout = '3s'");
      await second.query('begin');
      await second.query("insert into scratch values ('second')");
      await second.query('commit');
      assert.equal(await version(), before + 1n, 'the second commit counts at once');
      await first.query('commit');
      assert.equal(await version(), before + 2n);
    } finally {
      for (const c of clients) await c.end();
    }
  });
});

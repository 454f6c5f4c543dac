// SQLite transactions that arrive together share one COMMIT (group commit,
// src/store/sqlite-driver.ts). What callers must still get: a transaction
// that returned is committed (another connection reads it at that moment),
// one that failed left nothing, and a failure inside the group touches no one
// else. Runs on SQLite only: PostgreSQL commits each transaction itself.
import assert from 'node:assert/strict';
import { mkdtempSync, statSync } from 'node:fs';
import { DatabaseSync } from 'node:sqlite';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { after, before, describe, it } from 'node:test';
import { sql } from 'kysely';
import { openStore, type Store } from '../../src/store/store.js';
import { transact } from '../../src/store/transact.js';
import { usingPostgres } from '../harness/berth-process.js';

describe('SQLite group commit', { skip: usingPostgres() && 'SQLite only' }, () => {
  let store: Store;
  let dir: string;
  let other: DatabaseSync;

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'berth-group-commit-'));
    store = await openStore({ dataDir: dir });
    await sql`create table scratch (name text primary key, batch integer not null)`.execute(store.db);
    other = new DatabaseSync(join(dir, 'berth.db'), { readOnly: true });
  });
  after(async () => {
    other.close();
    await store.close();
  });

  const seenElsewhere = (name: string) => other.prepare('select name from scratch where name = ?').get(name) !== undefined;
  const insert = (name: string, batch: number) => transact(store, (tx) => sql`insert into scratch (name, batch) values (${name}, ${batch})`.execute(tx));

  it('answers only once committed, and a failing transaction leaves the others committed', async () => {
    const outcomes = await Promise.all(
      Array.from({ length: 60 }, (_, i) =>
        transact(store, async (tx) => {
          await sql`insert into scratch (name, batch) values (${`r${i}`}, 1)`.execute(tx);
          if (i % 4 === 3) throw new Error(`refused ${i}`); // after its write: it must be undone, alone
          return `r${i}`;
        }).then(
          (name) => ({ i, ok: true, visible: seenElsewhere(name) }),
          (err: Error) => ({ i, ok: false, visible: false, message: err.message }),
        ),
      ),
    );
    for (const o of outcomes) {
      if (o.i % 4 === 3) assert.deepEqual(o, { i: o.i, ok: false, visible: false, message: `refused ${o.i}` });
      else assert.deepEqual(o, { i: o.i, ok: true, visible: true }, `r${o.i} was answered before another connection could read it`);
    }
    const names = (other.prepare('select name from scratch where batch = 1 order by name').all() as Array<{ name: string }>).map((r) => r.name);
    const expected = outcomes.filter((o) => o.ok).map((o) => `r${o.i}`);
    assert.deepEqual(names, expected.sort());
  });

  it('keeps a constraint failure inside one transaction', async () => {
    await insert('taken', 2);
    const results = await Promise.allSettled([insert('a2', 2), insert('taken', 2), insert('b2', 2), insert('c2', 2)]);
    assert.deepEqual(
      results.map((r) => r.status),
      ['fulfilled', 'rejected', 'fulfilled', 'fulfilled'],
    );
    for (const n of ['a2', 'b2', 'c2', 'taken']) assert.ok(seenElsewhere(n), n);
  });

  it('commits a lone transaction at once, and autocommit writes are not held by a group', async () => {
    await insert('alone', 3);
    assert.ok(seenElsewhere('alone'));
    const [, plain] = await Promise.all([insert('t3', 3), sql`insert into scratch (name, batch) values ('plain', 3)`.execute(store.db)]);
    assert.equal(plain.numAffectedRows, 1n);
    assert.ok(seenElsewhere('plain') && seenElsewhere('t3'));
  });

  it('copies the WAL into the database file from its own thread', async () => {
    const file = join(dir, 'berth.db');
    await sleep(300); // let any checkpoint of the earlier writes finish
    const before = statSync(file).mtimeMs;
    // A few hundred pages: far below the writer's own automatic checkpoint.
    for (let i = 0; i < 50; i++) await insert(`w${i}-${'x'.repeat(2000)}`, 4);
    let checkpointed = false;
    for (let waited = 0; waited < 3000 && !checkpointed; waited += 50) {
      await sleep(50);
      checkpointed = statSync(file).mtimeMs > before;
    }
    assert.ok(checkpointed, 'the database file was not written within 3 s of the commits');
  });
});

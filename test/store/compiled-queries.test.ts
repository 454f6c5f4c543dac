// Compiled queries (src/store/compiled-queries.ts) are found by the handle a
// call site made, never by a name: two call sites whose descriptions match
// must each compile and run their own SQL, on SQLite and PostgreSQL alike.
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { type CompiledQueryHandle, compiledQuery, runCompiled } from '../../src/store/compiled-queries.js';
import { openStore, type Store } from '../../src/store/store.js';
import { dropDatabase, freshDatabase } from '../harness/berth-process.js';

describe('compiled queries', () => {
  let store: Store;
  let url: string | undefined;

  before(async () => {
    url = await freshDatabase();
    store = await openStore({ databaseUrl: url, dataDir: mkdtempSync(join(tmpdir(), 'berth-compiled-')) });
  });
  after(async () => {
    await store.close();
    await dropDatabase(url);
  });

  // Selects its one value under `column`, so which SQL ran shows in the row's key.
  const selectAs = (handle: CompiledQueryHandle | { handle: CompiledQueryHandle; shape: string }, column: string, value: string) =>
    runCompiled<Record<string, unknown>>(store.db, handle, [value], ([v]) => store.db.selectNoFrom((eb) => eb.val(v as string).as(column)));

  it('runs each handle’s own SQL when two handles share a description', async () => {
    const first = compiledQuery('the same description');
    const second = compiledQuery('the same description');
    assert.notEqual(first, second);
    assert.deepEqual((await selectAs(first, 'a', 'one'))[0], { a: 'one' });
    assert.deepEqual((await selectAs(second, 'b', 'two'))[0], { b: 'two' });
    // Each keeps its own compiled SQL afterwards, with the values of each run.
    assert.deepEqual((await selectAs(first, 'ignored', 'three'))[0], { a: 'three' });
    assert.deepEqual((await selectAs(second, 'ignored', 'four'))[0], { b: 'four' });
  });

  it('compiles one handle once per shape its call site names', async () => {
    const handle = compiledQuery('shaped');
    assert.deepEqual((await selectAs({ handle, shape: 'x' }, 'x', '1'))[0], { x: '1' });
    assert.deepEqual((await selectAs({ handle, shape: 'y' }, 'y', '2'))[0], { y: '2' });
    assert.deepEqual((await selectAs({ handle, shape: 'x' }, 'y', '3'))[0], { x: '3' });
  });

  it('refuses a handle compiledQuery did not make', async () => {
    await assert.rejects(selectAs({ description: 'forged' }, 'a', 'one'), /not a handle made by compiledQuery: forged/);
  });
});

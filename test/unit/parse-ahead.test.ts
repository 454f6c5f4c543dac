// The importer parses files ahead of the writer (on parse threads, which may
// finish out of order) and must still hand them over in input order, with a
// refusal in its place: the files before a refused one are imported, none
// after it. Also the parse pool itself: a thread's refusal comes back as the
// same ImportError (file, line, message) the importer prints.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ImportError } from '../../src/vulnerabilities/import/normalized-advisory.js';
import { ParsePool } from '../../src/vulnerabilities/import/parse-pool.js';
import { inOrderAhead } from '../../src/vulnerabilities/import/source-file.js';

async function* items(n: number, failAt?: number): AsyncIterable<number> {
  for (let i = 0; i < n; i++) {
    if (i === failAt) throw new Error(`input ${i} unreadable`);
    yield i;
  }
}

/** Drains `it`, returning what came before the failure and the failure. */
async function drain(it: AsyncIterable<number>): Promise<{ got: number[]; error?: string }> {
  const got: number[] = [];
  try {
    for await (const x of it) got.push(x);
  } catch (err) {
    return { got, error: (err as Error).message };
  }
  return { got };
}

// Later items settle first: each waits (n - i) ms.
const reversed = (n: number, rejectAt?: number) => (i: number) =>
  new Promise<number>((resolve, reject) => setTimeout(() => (i === rejectAt ? reject(new Error(`item ${i} refused`)) : resolve(i)), (n - i) * 3));

describe('parsing ahead', () => {
  it('yields in input order whatever order the work finishes in', async () => {
    assert.deepEqual(await drain(inOrderAhead(items(10), { depth: 10 }, reversed(10))), { got: [0, 1, 2, 3, 4, 5, 6, 7, 8, 9] });
  });

  it('reports a refusal in its place, after everything before it, even when it settled first', async () => {
    assert.deepEqual(await drain(inOrderAhead(items(10), { depth: 10 }, reversed(10, 6))), { got: [0, 1, 2, 3, 4, 5], error: 'item 6 refused' });
  });

  it('stops at a refusal taken while more are started ahead, yielding nothing after it', async () => {
    // Depth below the input count: the refusal is met while the stage is still reading inputs.
    assert.deepEqual(await drain(inOrderAhead(items(10), { depth: 3 }, reversed(10, 4))), { got: [0, 1, 2, 3], error: 'item 4 refused' });
  });

  it('yields what was started before the input failed, then the input failure', async () => {
    assert.deepEqual(await drain(inOrderAhead(items(10, 7), { depth: 10 }, reversed(10))), { got: [0, 1, 2, 3, 4, 5, 6], error: 'input 7 unreadable' });
  });

  it('keeps at most `depth` started, and within the weight budget', async () => {
    let started = 0;
    let taken = 0;
    let most = 0;
    const start = async (i: number) => {
      started++;
      most = Math.max(most, started - taken);
      return i;
    };
    for await (const _ of inOrderAhead(items(50), { depth: 4 }, start)) taken++;
    assert.equal(most, 4);
    started = taken = most = 0;
    for await (const _ of inOrderAhead(items(50), { depth: 100, weigh: () => 10, budget: 35 }, start)) taken++;
    assert.equal(most, 3, 'three items of weight 10 fit a budget of 35');
  });

  it('returns a parse thread refusal as the ImportError the importer prints', async () => {
    const pool = new ParsePool(1);
    try {
      const opts = { architectures: ['x86_64'], namespace: '', author: 'import:yaml' };
      const bad = new TextEncoder().encode('schema-version: 2.0.2\npackage:\n  name: p\nsurprise: 1\n');
      const err = await pool.parse('yaml', 'p.advisories.yaml', bad, opts).then(
        () => undefined,
        (e: unknown) => e,
      );
      assert.ok(err instanceof ImportError, String(err));
      assert.equal(err.file, 'p.advisories.yaml');
      assert.equal(err.line, 4);
      assert.match(err.message, /^p\.advisories\.yaml:4: /);
    } finally {
      await pool.close();
    }
  });
});

// SharedReads may hand a caller a read shared with others, but never one
// started before the caller asked: that read's snapshot could miss a commit
// the caller was told about. These drive it with reads that finish on command.
// A read starts once the event loop's turn is over, so callers of one turn share it.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { SharedReads } from '../../src/store/shared-reads.js';

/** A read per call of `run`, each finished by hand, numbered from 1. */
function manualReads() {
  const pending: { n: number; resolve: (v: number) => void; reject: (e: Error) => void }[] = [];
  let started = 0;
  const run = () =>
    new Promise<number>((resolve, reject) => {
      started++;
      pending.push({ n: started, resolve, reject });
    });
  const finish = (n: number, fail = false) => {
    const p = pending.find((x) => x.n === n);
    assert.ok(p, `read ${n} was started`);
    if (fail) p.reject(new Error(`read ${n} failed`));
    else p.resolve(n);
  };
  return { run, finish, started: () => started };
}

const tick = () => new Promise((r) => setImmediate(r));

describe('shared reads', () => {
  it('reads within its turn for a caller alone', async () => {
    const reads = new SharedReads<number>();
    const m = manualReads();
    const a = reads.read(m.run);
    assert.equal(m.started(), 0, 'not before the turn is over');
    await tick();
    assert.equal(m.started(), 1);
    m.finish(1);
    assert.equal(await a, 1);
    const b = reads.read(m.run);
    await tick();
    assert.equal(m.started(), 2, 'a finished read is not reused');
    m.finish(2);
    assert.equal(await b, 2);
  });

  it('shares one read between the callers of one turn, started after the last of them', async () => {
    const reads = new SharedReads<number>();
    const m = manualReads();
    const a = reads.read(m.run);
    const b = reads.read(m.run);
    await Promise.resolve(); // a caller reaching it from a microtask of the same turn joins too
    const c = reads.read(m.run);
    assert.equal(m.started(), 0);
    await tick();
    assert.equal(m.started(), 1);
    m.finish(1);
    assert.deepEqual(await Promise.all([a, b, c]), [1, 1, 1]);
  });

  it('gives callers that arrive during a read the next read, started after it, and shares that one', async () => {
    const reads = new SharedReads<number>();
    const m = manualReads();
    const a = reads.read(m.run);
    await tick();
    const b = reads.read(m.run);
    const c = reads.read(m.run);
    assert.equal(m.started(), 1, 'the next read waits for the running one');
    m.finish(1);
    assert.equal(await a, 1);
    await tick();
    assert.equal(m.started(), 2);
    const d = reads.read(m.run); // arrives while read 2 runs: must not get it
    m.finish(2);
    assert.equal(await b, 2);
    assert.equal(await c, 2);
    await tick();
    assert.equal(m.started(), 3);
    m.finish(3);
    assert.equal(await d, 3);
  });

  it('starts the next read when the running one fails, and passes a failure only to its own callers', async () => {
    const reads = new SharedReads<number>();
    const m = manualReads();
    const a = reads.read(m.run);
    await tick();
    const b = reads.read(m.run);
    m.finish(1, true);
    await assert.rejects(a, /read 1 failed/);
    await tick();
    m.finish(2);
    assert.equal(await b, 2);
  });
});

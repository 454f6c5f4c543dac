// setRecent (src/core/recent-map.ts), the bounded cache every in-process cache uses.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { setRecent } from '../../src/core/recent-map.js';

describe('setRecent', () => {
  it('keeps at most `limit` keys, forgetting the least recently set first', () => {
    const m = new Map<string, number>();
    for (const k of ['a', 'b', 'c']) setRecent(m, k, 1, 3);
    setRecent(m, 'a', 2, 3); // set again: now the most recent
    setRecent(m, 'd', 1, 3);
    assert.deepEqual([...m.keys()], ['c', 'a', 'd']);
    assert.equal(m.get('a'), 2);
    setRecent(m, 'e', 1, 3);
    assert.deepEqual([...m.keys()], ['a', 'd', 'e']);
  });
});

// The order gc deletes a repo's dead manifests in (pure): an index before
// what it lists, a subject before its referrers, edges to live manifests
// ignored, and the members of a listing-and-subject cycle last.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { orderForDeletion } from '../../src/registry/gc/deletion-order.js';

const before = (order: string[], a: string, b: string) => order.indexOf(a) < order.indexOf(b);

describe('gc deletion order', () => {
  it('puts an index before its children and a subject before its referrers, whatever the digests', () => {
    const dead = new Set(['a-child', 'b-sig', 'z-index', 'y-subject']);
    const children = new Map([['z-index', ['a-child']]]);
    const referrers = new Map([['y-subject', ['b-sig']]]);
    const order = orderForDeletion(dead, children, referrers);
    assert.deepEqual([...order].sort(), [...dead].sort());
    assert.ok(before(order, 'z-index', 'a-child'));
    assert.ok(before(order, 'y-subject', 'b-sig'));
  });

  it('ignores edges to manifests that are not being deleted, and lists a child of two indexes once', () => {
    const dead = new Set(['child', 'i1', 'i2']);
    const children = new Map([
      ['i1', ['child', 'live-child']],
      ['i2', ['child']],
      ['live-index', ['i1']],
    ]);
    const order = orderForDeletion(dead, children, new Map());
    assert.equal(order.length, 3);
    assert.equal(order[2], 'child');
  });

  it('puts what a cycle of listings and subjects holds last, in digest order', () => {
    // i lists c and m; m names c as subject: i < c (list), c < m (subject), m < i would need i to name m as subject.
    const dead = new Set(['c', 'i', 'm', 'free']);
    const children = new Map([['i', ['c']]]);
    const referrers = new Map([
      ['c', ['m']],
      ['m', ['i']],
    ]);
    assert.deepEqual(orderForDeletion(dead, children, referrers), ['free', 'c', 'i', 'm']);
  });
});

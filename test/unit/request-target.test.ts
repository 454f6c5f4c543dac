// A REST request's path and query come from a parse of its own for plain
// targets (src/server/rest/request-target.ts) and from WHATWG URL for the
// rest: both must give what URL gives, for every kind of target.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { requestTarget } from '../../src/server/rest/request-target.js';

const TARGETS = [
  '/registry/v2/repos',
  '/registry/v2/repos?page_size=50&order_by=name%20desc',
  '/registry/v2/repos?uidp.descendants_of=abc%2Fdef&x=1&x=2',
  '/registry/v2/repos/abc/def:undelete',
  '/iam/v2/groups/a.b/c~d',
  '/iam/v2/groups?name=a+b&q=%C3%A9&r=é',
  '/iam/v2/../registry/v2/repos',
  '/iam/v2/./groups',
  '/iam/v2/%2e%2E/groups',
  '/iam/v2/.well-known',
  '/a b/c"d<e>',
  '/a\\b',
  '/x?q=1#frag',
  '/x#frag',
  '/x?',
  '/x??a=1',
  '/ünï/cødé',
  '//double//slash',
  'http://example.com/abs?x=1',
  '/x?a=%zz&b',
];

describe('REST request targets', () => {
  for (const target of TARGETS) {
    it(`"${target}" parses as URL parses it`, () => {
      const want = new URL(target, 'http://berth.invalid');
      const got = requestTarget(target);
      assert.equal(got.pathname, want.pathname);
      assert.deepEqual([...got.searchParams], [...want.searchParams]);
    });
  }
});

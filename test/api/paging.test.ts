// Lists over 1,000+ resources: every order walks every result once, totalCount
// on every page, skip, clamping, and page-token rules.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { useBerth, type Berth } from '../harness/berth-process.js';
import { rest } from '../harness/api-client.js';

const N = 1030;

describe('paging through 1,000+ repos', () => {
  let berth: Berth;
  let token: string;
  useBerth(async (b, t) => {
    berth = b;
    token = t;
    for (let i = 0; i < N; i += 10) {
      await Promise.all(
        Array.from({ length: Math.min(10, N - i) }, (_, k) =>
          rest(berth.url, 'POST', `/registry/v2/repos/${berth.orgUid}`, { token, body: { name: `repo-${String(i + k).padStart(5, '0')}` } }),
        ),
      );
    }
  });

  async function walk(query: string) {
    const seen: string[] = [];
    let pageToken = '';
    let pages = 0;
    for (;;) {
      const r = await rest(berth.url, 'GET', `/registry/v2/repos?${query}&page_size=200${pageToken ? `&page_token=${encodeURIComponent(pageToken)}` : ''}`, {
        token,
      });
      assert.equal(r.status, 200, r.text);
      assert.equal(r.json.totalCount, String(N));
      seen.push(...r.json.repos.map((x: { name: string; uid: string }) => `${x.name}|${x.uid}|${(x as { createTime?: string }).createTime}`));
      pages++;
      if (!r.json.nextPageToken) break;
      pageToken = r.json.nextPageToken;
      assert.ok(pages < 50, 'paging must end');
    }
    return seen;
  }

  for (const order of ['', 'name', 'name desc', 'created_at desc', 'uid desc', 'updated_at']) {
    it(`walks every repo exactly once ordered by "${order || 'default'}"`, async () => {
      const seen = await walk(order ? `order_by=${encodeURIComponent(order)}` : 'x=1');
      assert.equal(seen.length, N);
      assert.equal(new Set(seen).size, N);
      const names = seen.map((s) => s.split('|')[0]);
      if (order === 'name') assert.deepEqual(names, [...names].sort());
      if (order === 'name desc') assert.deepEqual(names, [...names].sort().reverse());
      if (order === '') {
        const uids = seen.map((s) => s.split('|')[1]);
        assert.deepEqual(uids, [...uids].sort());
      }
    });
  }

  it('defaults page_size to 50, clamps it to 200 and rejects negatives', async () => {
    const d = await rest(berth.url, 'GET', '/registry/v2/repos', { token });
    assert.equal(d.json.repos.length, 50);
    const big = await rest(berth.url, 'GET', '/registry/v2/repos?pageSize=5000', { token });
    assert.equal(big.json.repos.length, 200);
    const neg = await rest(berth.url, 'GET', '/registry/v2/repos?page_size=-1', { token });
    assert.equal(neg.status, 400);
    assert.equal(neg.json.code, 3);
  });

  it('skips and echoes skipped', async () => {
    const r = await rest(berth.url, 'GET', '/registry/v2/repos?page_size=5&order_by=name&skip=10', { token });
    assert.equal(r.json.skipped, 10);
    assert.equal(r.json.repos[0].name, 'repo-00010');
    const neg = await rest(berth.url, 'GET', '/registry/v2/repos?skip=-2', { token });
    assert.equal(neg.status, 400);
  });

  it('rejects a forged, edited or foreign page token and an unknown order_by field', async () => {
    const first = await rest(berth.url, 'GET', '/registry/v2/repos?order_by=name&page_size=3', { token });
    const tok = first.json.nextPageToken as string;
    const forged = await rest(berth.url, 'GET', `/registry/v2/repos?order_by=name&page_size=3&page_token=${tok.slice(0, -3)}abc`, { token });
    assert.equal(forged.status, 400);
    assert.equal(forged.json.code, 3);
    const garbage = await rest(berth.url, 'GET', '/registry/v2/repos?page_token=not-a-token', { token });
    assert.equal(garbage.status, 400);
    const otherQuery = await rest(berth.url, 'GET', `/registry/v2/repos?order_by=name%20desc&page_token=${encodeURIComponent(tok)}`, { token });
    assert.equal(otherQuery.status, 400);
    assert.match(otherQuery.json.message, /different query/);
    const unknown = await rest(berth.url, 'GET', '/registry/v2/repos?order_by=colour', { token });
    assert.equal(unknown.status, 400);
    assert.match(unknown.json.message, /sortable fields: uid, name, created_at, updated_at/);
    const next = await rest(berth.url, 'GET', `/registry/v2/repos?order_by=name&page_size=3&page_token=${encodeURIComponent(tok)}`, { token });
    assert.equal(next.json.repos[0].name, 'repo-00003');
  });
});

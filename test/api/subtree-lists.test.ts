// Lists ordered by name over the caller's subtrees, where those hold most of
// the table (dense: the list walks the name index and filters by subtree,
// written unindexed) and where they hold a few rows (sparse: the uid ranges
// are searched and sorted). The table is analyzed first, so PostgreSQL's
// estimate of its size is exact and both forms run there (keyset-page.ts).
// Either way a caller sees exactly its subtrees' repos, in order, across pages.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { useBerth, type Berth } from '../harness/berth-process.js';
import { identityWithRole, rest } from '../harness/api-client.js';
import { sqlQuery } from '../harness/database.js';

const WIDE = 60;
const NARROW = 4;

describe('name-ordered lists over dense and sparse subtrees', () => {
  let berth: Berth;
  let owner: string;
  const names: Record<'wide' | 'narrow', string[]> = { wide: [], narrow: [] };
  const groups: Record<'wide' | 'narrow', string> = { wide: '', narrow: '' };

  useBerth(async (b, t) => {
    berth = b;
    owner = t;
    for (const [which, n] of [
      ['wide', WIDE],
      ['narrow', NARROW],
    ] as const) {
      const g = await rest(b.url, 'POST', `/iam/v2/groups/${b.orgUid}`, { token: t, body: { name: `${which}-team` } });
      assert.equal(g.status, 200, g.text);
      groups[which] = g.json.uid;
      // Names interleave across the two groups, so the name index alternates between them.
      for (let i = 0; i < n; i += 10) {
        await Promise.all(
          Array.from({ length: Math.min(10, n - i) }, async (_, k) => {
            const name = `r-${String(((i + k) * 7919) % 1000).padStart(3, '0')}-${which}`;
            const r = await rest(b.url, 'POST', `/registry/v2/repos/${groups[which]}`, { token: t, body: { name } });
            assert.equal(r.status, 200, r.text);
            names[which].push(name);
          }),
        );
      }
    }
    await sqlQuery(b, 'analyze repos');
  });

  async function walk(token: string, order: string, pageSize: number): Promise<{ names: string[]; total: string }> {
    const seen: string[] = [];
    let total = '';
    let pageToken = '';
    for (let pages = 0; ; pages++) {
      assert.ok(pages < 100, 'paging must end');
      const q = `order_by=${encodeURIComponent(order)}&page_size=${pageSize}${pageToken ? `&page_token=${encodeURIComponent(pageToken)}` : ''}`;
      const r = await rest(berth.url, 'GET', `/registry/v2/repos?${q}`, { token });
      assert.equal(r.status, 200, r.text);
      total = r.json.totalCount;
      seen.push(...r.json.repos.map((x: { name: string }) => x.name));
      if (!r.json.nextPageToken) return { names: seen, total };
      pageToken = r.json.nextPageToken;
    }
  }

  for (const which of ['wide', 'narrow'] as const) {
    for (const order of ['name', 'name desc']) {
      it(`a caller bound in the ${which} group sees exactly its repos ordered by ${order}, page after page`, async () => {
        const viewer = await identityWithRole(berth.url, owner, berth.orgUid, 'viewer', groups[which]);
        const got = await walk(viewer.token, order, 7);
        const want = [...names[which]].sort();
        assert.deepEqual(got.names, order === 'name' ? want : want.reverse());
        assert.equal(got.total, String(names[which].length));
      });
    }
  }

  it('the owner sees both groups interleaved by name', async () => {
    const got = await walk(owner, 'name', 9);
    assert.deepEqual(got.names, [...names.wide, ...names.narrow].sort());
  });
});

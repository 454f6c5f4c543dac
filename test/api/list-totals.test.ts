// A list's totalCount at size: exact up to 10,000 matches on every database;
// above that, on PostgreSQL, the planner's estimate (never below 10,001), so
// a total over a large table is not a scan per request; SQLite counts
// exactly. The repos are planted in the database (12,000 through the API
// would take minutes), in groups made through the API.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { useBerth, usingPostgres, type Berth } from '../harness/berth-process.js';
import { rest } from '../harness/api-client.js';
import { sqlQuery } from '../harness/database.js';

const NOW = '2026-01-01T00:00:00.000Z';

/** Inserts `n` repos into group `parent` as the repo writer would (uid: the group's plus 16 hex). */
async function plantRepos(berth: Berth, parent: string, n: number): Promise<void> {
  const series = usingPostgres()
    ? `select $1 || '/' || substr(md5($1 || i), 1, 16) as uid, 'planted-' || i as name from generate_series(1, ${n}) i`
    : `with recursive s(i) as (select 1 union all select i + 1 from s where i < ${n}) select $1 || '/' || lower(hex(randomblob(8))) as uid, 'planted-' || i as name from s`;
  await sqlQuery(
    berth,
    `insert into repos (uid, parent_uid, name, description, readme, create_time, update_time) select uid, $1, name, '', '', $2, $2 from (${series}) p`,
    [parent, NOW],
  );
}

describe('list totals at size', () => {
  let berth: Berth;
  let token: string;
  const groups: Record<string, string> = {};
  useBerth(async (b, t) => {
    berth = b;
    token = t;
    for (const [name, repos] of [
      ['few', 30],
      ['limit', 10_000],
      ['many', 12_000],
    ] as const) {
      const g = await rest(berth.url, 'POST', `/iam/v2/groups/${berth.orgUid}`, { token, body: { name } });
      assert.equal(g.status, 200, g.text);
      groups[name] = g.json.uid;
      await plantRepos(berth, g.json.uid, repos);
    }
    if (usingPostgres()) await sqlQuery(berth, 'analyze repos'); // as autovacuum does after a bulk write
  });
  const total = async (group: string) => {
    const r = await rest(berth.url, 'GET', `/registry/v2/repos?uidp.descendants_of=${group}&page_size=50`, { token });
    assert.equal(r.status, 200, r.text);
    assert.equal(r.json.repos.length, 50 > Number(r.json.totalCount) ? Number(r.json.totalCount) : 50);
    return Number(r.json.totalCount);
  };

  it('counts up to 10,000 matches exactly, and a write counts on the next list', async () => {
    assert.equal(await total(groups.few), 30);
    assert.equal(await total(groups.limit), 10_000);
    const created = await rest(berth.url, 'POST', `/registry/v2/repos/${groups.few}`, { token, body: { name: 'one-more' } });
    assert.equal(created.status, 200, created.text);
    assert.equal(await total(groups.few), 31);
  });

  it('above 10,000 matches counts exactly on SQLite and estimates on PostgreSQL, never below 10,001', async () => {
    const n = await total(groups.many);
    if (!usingPostgres()) assert.equal(n, 12_000);
    else {
      assert.ok(n >= 10_001, `${n}`);
      assert.ok(Math.abs(n - 12_000) <= 12_000 * 0.25, `estimate ${n} for 12,000`);
    }
    // The whole organization: 22,031 repos and more than the limit either way.
    const all = await rest(berth.url, 'GET', '/registry/v2/repos?page_size=10&order_by=name', { token });
    assert.equal(all.status, 200, all.text);
    assert.equal(all.json.repos.length, 10);
    assert.ok(Number(all.json.totalCount) > 10_000, all.json.totalCount);
    if (!usingPostgres()) assert.equal(Number(all.json.totalCount), 22_031);
  });
});

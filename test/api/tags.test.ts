// Tags: create-or-move with history, only to manifests the repo holds, default
// hiding of referrer/date/epoch tags, repo cascade.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { TagsService } from '../../src/gen/berth/registry/v2/tags_pb.js';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import pg from 'pg';
import { startBerth, type Berth } from '../harness/berth-process.js';
import { grpcClient, identityWithRole, ownerToken, rest } from '../harness/api-client.js';
import { seedImage } from '../harness/registry-content.js';

/** tag_history rows of one tag, oldest first, read straight from the database. */
async function historyOf(berth: Berth, repoUid: string, tag: string): Promise<Array<{ digest: string; update_time: string }>> {
  const q = 'select digest, update_time from tag_history where repo_uid = $1 and tag_name = $2 order by id';
  if (berth.databaseUrl) {
    const client = new pg.Client({ connectionString: berth.databaseUrl });
    await client.connect();
    try {
      return (await client.query(q, [repoUid, tag])).rows;
    } finally {
      await client.end();
    }
  }
  const db = new DatabaseSync(join(berth.dataDir, 'berth.db'), { readOnly: true });
  try {
    return db.prepare(q.replace('$1', '?').replace('$2', '?')).all(repoUid, tag) as Array<{ digest: string; update_time: string }>;
  } finally {
    db.close();
  }
}

describe('registry tags', () => {
  let berth: Berth;
  let token: string;
  let repo: string;
  /** Two images pushed to `repo`. */
  let D1: string;
  let D2: string;
  const names = async (query: string) =>
    (await rest(berth.url, 'GET', `/registry/v2/tags?uidp.children_of=${encodeURIComponent(repo)}${query}`, { token })).json.tags
      .map((t: { name: string }) => t.name)
      .sort();
  before(async () => {
    berth = await startBerth();
    token = ownerToken(berth.credentialsFile);
    repo = (await rest(berth.url, 'POST', `/registry/v2/repos/${berth.orgUid}`, { token, body: { name: 'app' } })).json.uid;
    D1 = await seedImage(berth, repo);
    D2 = await seedImage(berth, repo);
  });
  after(async () => {
    await berth.stop();
  });

  it('creates a tag, then moves it to a new digest', async () => {
    const a = await rest(berth.url, 'POST', `/registry/v2/tags/${repo}`, { token, body: { name: 'latest', digest: D1 } });
    assert.equal(a.status, 200, a.text);
    assert.match(a.json.uid, new RegExp(`^${repo}/[0-9a-f]{16}$`));
    assert.equal(a.json.deprecated, false);
    const b = await rest(berth.url, 'POST', `/registry/v2/tags/${repo}`, { token, body: { name: 'latest', digest: D2, deprecated: true } });
    assert.equal(b.status, 200, b.text);
    assert.equal(b.json.uid, a.json.uid);
    assert.equal(b.json.digest, D2);
    assert.equal(b.json.deprecated, true);
    assert.ok(b.json.updateTime >= a.json.updateTime);
    const got = await rest(berth.url, 'GET', `/registry/v2/tags/${a.json.uid}`, { token });
    assert.deepEqual(got.json, b.json);
    const byDigest = await rest(berth.url, 'GET', `/registry/v2/tags?uidp.children_of=${repo}&digest=${D2}`, { token });
    assert.equal(byDigest.json.totalCount, '1');
    const old = await rest(berth.url, 'GET', `/registry/v2/tags?uidp.children_of=${repo}&digest=${D1}`, { token });
    assert.equal(old.json.totalCount, '0');
    const since = await rest(berth.url, 'GET', `/registry/v2/tags?uidp.children_of=${repo}&updated_since=2999-01-01T00:00:00Z`, { token });
    assert.equal(since.json.totalCount, '0');
  });

  it('records every move in the tag history', async () => {
    const r = await rest(berth.url, 'POST', `/registry/v2/tags/${repo}`, { token, body: { name: 'hist', digest: D1 } });
    await rest(berth.url, 'POST', `/registry/v2/tags/${repo}`, { token, body: { name: 'hist', digest: D1, deprecated: true } });
    const moved = await rest(berth.url, 'POST', `/registry/v2/tags/${repo}`, { token, body: { name: 'hist', digest: D2 } });
    assert.equal(moved.json.uid, r.json.uid);
    // The v2 API has no history read; look at the table the history endpoint serves from.
    const rows = await historyOf(berth, repo, 'hist');
    assert.deepEqual(
      rows.map((h) => h.digest),
      [D1, D2],
    );
    assert.equal(rows[1].update_time, moved.json.updateTime);
  });

  it('tags only manifests the repo holds', async () => {
    const other = (await rest(berth.url, 'POST', `/registry/v2/repos/${berth.orgUid}`, { token, body: { name: 'elsewhere' } })).json.uid;
    const elsewhere = await seedImage(berth, other);
    for (const digest of [`sha256:${'c'.repeat(64)}`, elsewhere]) {
      const r = await rest(berth.url, 'POST', `/registry/v2/tags/${repo}`, { token, body: { name: 'nope', digest } });
      assert.equal(r.status, 400, r.text);
      assert.equal(r.json.code, 9);
      assert.match(r.json.message, /^Precondition failed: the repo holds no manifest sha256:/);
      const violation = r.json.details.find((d: { '@type': string }) => d['@type'].endsWith('PreconditionFailure')).violations[0];
      assert.equal(violation.type, 'MANIFEST_UNKNOWN');
      assert.equal(violation.subject, `${repo}@${digest}`);
    }
    const names = await rest(berth.url, 'GET', `/registry/v2/tags?uidp.children_of=${encodeURIComponent(repo)}&name=nope`, { token });
    assert.equal(names.json.totalCount, '0');
    assert.deepEqual(await historyOf(berth, repo, 'nope'), []);
  });

  it('records a deleted tag in its history, and a re-created one anew', async () => {
    const t = await rest(berth.url, 'POST', `/registry/v2/tags/${repo}`, { token, body: { name: 'gone', digest: D1 } });
    assert.equal((await rest(berth.url, 'DELETE', `/registry/v2/tags/${t.json.uid}`, { token })).status, 200);
    const again = await rest(berth.url, 'POST', `/registry/v2/tags/${repo}`, { token, body: { name: 'gone', digest: D1 } });
    assert.equal(again.status, 200, again.text);
    assert.deepEqual(
      (await historyOf(berth, repo, 'gone')).map((h) => h.digest),
      [D1, '', D1],
    );
  });

  it('rejects bad names and digests and a missing repo', async () => {
    const bad = await rest(berth.url, 'POST', `/registry/v2/tags/${repo}`, { token, body: { name: '.bad', digest: 'sha256:xyz' } });
    assert.equal(bad.status, 400);
    const fields = bad.json.details.find((d: { '@type': string }) => d['@type'].endsWith('BadRequest')).fieldViolations.map((v: { field: string }) => v.field);
    assert.deepEqual(fields, ['tag.name', 'tag.digest']);
    const missing = await rest(berth.url, 'POST', `/registry/v2/tags/${berth.orgUid}/0000000000000000`, { token, body: { name: 'x', digest: D1 } });
    assert.equal(missing.status, 404);
  });

  it('hides referrer, date and epoch tags unless asked', async () => {
    for (const name of ['v1', 'sha256-abc123', 'v1-20240101', 'v1-r3', 'v1-r', 'v1-2024', 'v1-rc1']) {
      const r = await rest(berth.url, 'POST', `/registry/v2/tags/${repo}`, { token, body: { name, digest: D1 } });
      assert.equal(r.status, 200, r.text);
    }
    const base = ['gone', 'hist', 'latest', 'v1', 'v1-2024', 'v1-r', 'v1-rc1'];
    assert.deepEqual(await names(''), base);
    assert.deepEqual(await names('&include_referrers=true'), [...base, 'sha256-abc123'].sort());
    assert.deepEqual(await names('&include_dates=true'), [...base, 'v1-20240101'].sort());
    assert.deepEqual(await names('&include_epochs=true'), [...base, 'v1-r3'].sort());
    assert.deepEqual(await names('&name=sha256-abc123&include_referrers=true'), ['sha256-abc123']);
  });

  it('lists only the tags the caller may see, and deletes', async () => {
    const g = (await rest(berth.url, 'POST', `/iam/v2/groups/${berth.orgUid}`, { token, body: { name: 'other' } })).json.uid;
    const otherRepo = (await rest(berth.url, 'POST', `/registry/v2/repos/${g}`, { token, body: { name: 'hidden' } })).json.uid;
    const secret = await rest(berth.url, 'POST', `/registry/v2/tags/${otherRepo}`, {
      token,
      body: { name: 'secret', digest: await seedImage(berth, otherRepo) },
    });
    assert.equal(secret.status, 200, secret.text);
    const viewer = await identityWithRole(berth.url, token, berth.orgUid, 'viewer', g);
    const seen = await rest(berth.url, 'GET', '/registry/v2/tags', { token: viewer.token });
    assert.deepEqual(
      seen.json.tags.map((t: { name: string }) => t.name),
      ['secret'],
    );
    const tag = seen.json.tags[0].uid as string;
    const denied = await rest(berth.url, 'DELETE', `/registry/v2/tags/${tag}`, { token: viewer.token });
    assert.equal(denied.status, 403);
    const del = await rest(berth.url, 'DELETE', `/registry/v2/tags/${tag}`, { token });
    assert.equal(del.status, 200);
    assert.equal(del.text, '{}');
    const again = await rest(berth.url, 'DELETE', `/registry/v2/tags/${tag}`, { token });
    assert.equal(again.status, 404);
  });

  it('goes away with its repo', async () => {
    const r = (await rest(berth.url, 'POST', `/registry/v2/repos/${berth.orgUid}`, { token, body: { name: 'doomed' } })).json.uid;
    const t = await rest(berth.url, 'POST', `/registry/v2/tags/${r}`, { token, body: { name: 'latest', digest: await seedImage(berth, r) } });
    assert.equal(t.status, 200, t.text);
    const del = await rest(berth.url, 'DELETE', `/registry/v2/repos/${r}`, { token });
    assert.equal(del.status, 200, del.text);
    const gone = await rest(berth.url, 'GET', `/registry/v2/tags/${t.json.uid}`, { token });
    assert.equal(gone.status, 404);
    const list = await rest(berth.url, 'GET', `/registry/v2/tags?uidp.children_of=${r}`, { token });
    assert.equal(list.json.totalCount, '0');
    assert.deepEqual(await historyOf(berth, r, 'latest'), []);
  });

  it('serves tags over gRPC', async () => {
    const client = grpcClient(TagsService, berth.url, token);
    const tag = await client.createTag({ parent: repo, tag: { name: 'grpc', digest: D2 } });
    const got = await client.getTag({ uid: tag.uid });
    assert.equal(got.digest, D2);
  });
});

// The tag history on the registry host (/v2/<org>/<image>/_berth/history/<tag>)
// and on the API (/registry/v1/tags/{uid}/history), seeded through the API's
// tag moves. Also how the registry's Bearer auth treats tokens there: the
// registry route is the first to go through authorizeRepo.
import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { before, describe, it } from 'node:test';
import { RegistryService } from '../../src/gen/berth/registry/v1/registry_pb.js';
import { useBerth, type Berth } from '../harness/berth-process.js';
import { sqlQuery } from '../harness/database.js';
import { seedImage } from '../harness/registry-content.js';
import { grpcClient, rest } from '../harness/api-client.js';
import { basic, cliToken, identityWithKeys, registryGet, registryHost, tokenGet, type TestIdentity } from '../harness/registry-client.js';

// Tags may only name manifests the repo holds: each letter stands for an image
// seeded into the repo it is used with (first use), its digest kept here.
const images = new Map<string, string>();
const D = (c: string): string => {
  const d = images.get(c);
  if (!d) throw new Error(`image ${c} was not seeded`);
  return d;
};

describe('tag history', () => {
  let berth: Berth;
  let owner: string;
  let ownerReg: string;
  let host: string;
  let repo: string;
  let latestUid: string;
  let times: string[]; // update times of latest's three moves, oldest first
  let path: string;
  let puller: TestIdentity;

  useBerth((b, t) => {
    berth = b;
    owner = t;
  });

  const seeded = async (repoUid: string, c: string): Promise<string> => {
    if (!images.has(c)) images.set(c, await seedImage(berth, repoUid));
    return D(c);
  };

  const moveTag = async (repoUid: string, name: string, c: string) => {
    const digest = await seeded(repoUid, c);
    const r = await rest(berth.url, 'POST', `/registry/v2/tags/${repoUid}`, { token: owner, body: { name, digest } });
    assert.equal(r.status, 200, r.text);
    return r.json as { uid: string; updateTime: string };
  };

  before(async () => {
    host = registryHost(berth);
    ownerReg = cliToken(berth, host).token;
    repo = (await rest(berth.url, 'POST', `/registry/v2/repos/${berth.orgUid}`, { token: owner, body: { name: 'tools/app' } })).json.uid;
    times = [];
    for (const c of ['a', 'b', 'c']) {
      const t = await moveTag(repo, 'latest', c);
      latestUid = t.uid;
      times.push(t.updateTime);
      await sleep(5); // distinct millisecond timestamps, so the window filters have edges to test
    }
    await moveTag(repo, 'latest', 'c'); // not a move: no record
    path = `/v2/${berth.orgName}/tools/app/_berth/history/latest`;
    puller = await identityWithKeys(berth, owner, berth.orgUid, 'registry.pull');
  });

  const history = (query = '', auth = `Bearer ${ownerReg}`) => registryGet(berth, `${path}${query}`, auth);

  it('lists every digest the tag pointed to, oldest first', async () => {
    const r = await history();
    assert.equal(r.status, 200, r.text);
    assert.equal(r.headers.get('docker-distribution-api-version'), 'registry/2.0');
    assert.deepEqual(r.json, {
      history: [
        { updateTimestamp: times[0], digest: D('a') },
        { updateTimestamp: times[1], digest: D('b') },
        { updateTimestamp: times[2], digest: D('c') },
      ],
    });
  });

  it('keeps records at or after start and before end, URL-encoded or not', async () => {
    const digests = async (q: string) => {
      const r = await history(q);
      assert.equal(r.status, 200, `${q}: ${r.text}`);
      return r.json.history.map((h: { digest: string }) => h.digest);
    };
    assert.deepEqual(await digests(`?start=${times[1]}`), [D('b'), D('c')]);
    assert.deepEqual(await digests(`?end=${times[1]}`), [D('a')]);
    assert.deepEqual(await digests(`?start=${encodeURIComponent(times[0])}&end=${encodeURIComponent(times[2])}`), [D('a'), D('b')]);
    assert.deepEqual(await digests('?end=3000-01-01T00%3A00%3A00.000Z'), [D('a'), D('b'), D('c')]);
    // The same instant as times[1], written with a +02:00 offset, unencoded (a raw '+').
    const t1 = new Date(Date.parse(times[1]) + 2 * 3600_000).toISOString().replace('Z', '+02:00');
    assert.deepEqual(await digests(`?start=${t1}`), [D('b'), D('c')]);
    // A bound finer than a millisecond: just after times[1] excludes it.
    assert.deepEqual(await digests(`?start=${times[1].replace('Z', '0001Z')}`), [D('c')]);
    assert.deepEqual(await digests('?start=2999-01-01T00:00:00Z'), []);
  });

  it('answers a malformed timestamp 400 with the OCI body', async () => {
    for (const q of [
      '?start=yesterday',
      '?end=2024-02-30T00:00:00Z',
      '?start=2024-01-01T24:00:00Z',
      '?start=2024-01-01',
      '?start=%E0%A4%A',
      '?start=a&start=b',
    ]) {
      const r = await history(q);
      assert.equal(r.status, 400, q);
      assert.equal(r.json.errors[0].code, 'REQUEST_INVALID', q);
    }
  });

  it('answers an unknown tag MANIFEST_UNKNOWN and an unknown repo NAME_UNKNOWN, both 404', async () => {
    const tag = await registryGet(berth, `/v2/${berth.orgName}/tools/app/_berth/history/nope`, `Bearer ${ownerReg}`);
    assert.equal(tag.status, 404);
    assert.equal(tag.json.errors[0].code, 'MANIFEST_UNKNOWN');
    const name = await registryGet(berth, `/v2/${berth.orgName}/no-such/_berth/history/latest`, `Bearer ${ownerReg}`);
    assert.equal(name.status, 404);
    assert.equal(name.json.errors[0].code, 'NAME_UNKNOWN');
  });

  it('keeps the history of a deleted tag', async () => {
    const t = await moveTag(repo, 'gone', 'd');
    assert.equal((await rest(berth.url, 'DELETE', `/registry/v2/tags/${t.uid}`, { token: owner })).status, 200);
    const r = await registryGet(berth, `/v2/${berth.orgName}/tools/app/_berth/history/gone`, `Bearer ${ownerReg}`);
    assert.equal(r.status, 200, r.text);
    assert.deepEqual(r.json.history, [{ updateTimestamp: t.updateTime, digest: D('d') }]);
  });

  it('returns at most 1000 records, the oldest', async () => {
    const n = 1005;
    const values = Array.from({ length: n }, (_, i) => `($1, 'many', $2, '${new Date(Date.UTC(2020, 0, 1) + i * 1000).toISOString()}')`);
    await sqlQuery(berth, `insert into tag_history (repo_uid, tag_name, digest, update_time) values ${values.join(', ')}`, [repo, await seeded(repo, 'e')]);
    const r = await registryGet(berth, `/v2/${berth.orgName}/tools/app/_berth/history/many`, `Bearer ${ownerReg}`);
    assert.equal(r.status, 200);
    assert.equal(r.json.history.length, 1000);
    assert.equal(r.json.history[0].updateTimestamp, '2020-01-01T00:00:00.000Z');
    assert.equal(r.json.history[999].updateTimestamp, new Date(Date.UTC(2020, 0, 1) + 999_000).toISOString());
    const later = await registryGet(
      berth,
      `/v2/${berth.orgName}/tools/app/_berth/history/many?start=${new Date(Date.UTC(2020, 0, 1) + 1000_000).toISOString()}`,
      `Bearer ${ownerReg}`,
    );
    assert.equal(later.json.history.length, 5);
  });

  it('orders records of the same millisecond as they were written (the index on time and id, migration 0034)', async () => {
    const [f, g] = [await seeded(repo, 'p'), await seeded(repo, 'q')];
    const at = '2021-06-01T00:00:00.000Z';
    for (const d of [f, g, f, g, f])
      await sqlQuery(berth, `insert into tag_history (repo_uid, tag_name, digest, update_time) values ($1, 'tied', $2, $3)`, [repo, d, at]);
    const r = await registryGet(berth, `/v2/${berth.orgName}/tools/app/_berth/history/tied`, `Bearer ${ownerReg}`);
    assert.equal(r.status, 200, r.text);
    assert.deepEqual(
      r.json.history.map((h: { digest: string }) => h.digest),
      [f, g, f, g, f],
    );
    const from = await registryGet(berth, `/v2/${berth.orgName}/tools/app/_berth/history/tied?start=${at}`, `Bearer ${ownerReg}`);
    assert.equal(from.json.history.length, 5);
  });

  describe('registry Bearer auth (authorizeRepo)', () => {
    it('challenges a request without a token with the scope it needs', async () => {
      const r = await registryGet(berth, path);
      assert.equal(r.status, 401);
      assert.equal(r.json.errors[0].code, 'UNAUTHORIZED');
      assert.equal(
        r.headers.get('www-authenticate'),
        `Bearer realm="${berth.registryPublicUrl}/token",service="${host}",scope="repository:${berth.orgName}/tools/app:pull"`,
      );
    });

    it('refuses a token for another audience with 403 DENIED', async () => {
      const r = await history('', `Bearer ${owner}`);
      assert.equal(r.status, 403);
      assert.equal(r.json.errors[0].code, 'DENIED');
    });

    it('accepts a registry token from /token for the repo, and not for another repo', async () => {
      const t = await tokenGet(berth, [`repository:${berth.orgName}/tools/app:pull`], basic('_token', await puller.tokenFor(host)));
      assert.equal((await history('', `Bearer ${t.json.token}`)).status, 200);
      const other = await tokenGet(berth, [`repository:${berth.orgName}/other:pull`], basic('_token', await puller.tokenFor(host)));
      const r = await history('', `Bearer ${other.json.token}`);
      assert.equal(r.status, 401);
      assert.match(r.headers.get('www-authenticate') ?? '', /scope="repository:example\.com\/tools\/app:pull",error="insufficient_scope"$/);
    });

    it('does not reveal whether a repo exists to a caller without rights', async () => {
      const stranger = await identityWithKeys(berth, owner, berth.orgUid);
      const tok = await stranger.tokenFor(host);
      const existing = await history('', `Bearer ${tok}`);
      const missing = await registryGet(berth, `/v2/${berth.orgName}/no-such/_berth/history/latest`, `Bearer ${tok}`);
      assert.equal(existing.status, 401);
      assert.equal(missing.status, 401);
      assert.equal(existing.json.errors[0].code, missing.json.errors[0].code);
    });

    it('stops a deleted identity at once, with its registry token and its own token', async () => {
      const doomed = await identityWithKeys(berth, owner, berth.orgUid, 'registry.pull');
      const own = await doomed.tokenFor(host);
      const t = await tokenGet(berth, [`repository:${berth.orgName}/tools/app:pull`], basic('_token', own));
      assert.equal((await history('', `Bearer ${t.json.token}`)).status, 200);
      assert.equal((await rest(berth.url, 'DELETE', `/iam/v2/roleBindings/${doomed.bindingUid}`, { token: owner })).status, 200);
      assert.equal((await rest(berth.url, 'DELETE', `/iam/v2/identities/${doomed.uid}`, { token: owner })).status, 200);
      for (const tok of [t.json.token, own]) {
        const r = await history('', `Bearer ${tok}`);
        assert.equal(r.status, 401);
        assert.equal(r.json.errors[0].code, 'UNAUTHORIZED');
      }
      assert.equal((await tokenGet(berth, [`repository:${berth.orgName}/tools/app:pull`], basic('_token', own))).status, 401);
    });

    it('stops a registry token when the binding behind it is removed', async () => {
      const revoked = await identityWithKeys(berth, owner, berth.orgUid, 'registry.pull');
      const t = await tokenGet(berth, [`repository:${berth.orgName}/tools/app:pull`], basic('_token', await revoked.tokenFor(host)));
      assert.equal((await history('', `Bearer ${t.json.token}`)).status, 200);
      assert.equal((await rest(berth.url, 'DELETE', `/iam/v2/roleBindings/${revoked.bindingUid}`, { token: owner })).status, 200);
      assert.equal((await history('', `Bearer ${t.json.token}`)).status, 401);
    });

    it('lets an anonymous token read the public organization at the free-tier tags only', async () => {
      const pub = await rest(berth.url, 'POST', '/iam/v2/groups', { token: owner, body: { name: 'public' } });
      assert.equal(pub.status, 200, pub.text);
      const img = (await rest(berth.url, 'POST', `/registry/v2/repos/${pub.json.uid}`, { token: owner, body: { name: 'img' } })).json.uid;
      const latest = await moveTag(img, 'latest', 'f');
      await moveTag(img, '1.0', 'f');
      const anon = (await tokenGet(berth, ['repository:public/img:pull'])).json.token;
      const ok = await registryGet(berth, '/v2/public/img/_berth/history/latest', `Bearer ${anon}`);
      assert.equal(ok.status, 200, ok.text);
      assert.deepEqual(ok.json.history, [{ updateTimestamp: latest.updateTime, digest: D('f') }]);
      const paid = await registryGet(berth, '/v2/public/img/_berth/history/1.0', `Bearer ${anon}`);
      assert.equal(paid.status, 403);
      assert.equal(paid.json.errors[0].code, 'DENIED');
      assert.equal((await registryGet(berth, `/v2/public/img/_berth/history/1.0`, `Bearer ${ownerReg}`)).status, 200);
      const elsewhere = (await tokenGet(berth, [`repository:${berth.orgName}/tools/app:pull`])).json.token;
      assert.equal((await history('', `Bearer ${elsewhere}`)).status, 401);
    });
  });

  describe('GET /registry/v1/tags/{uid}/history', () => {
    it('answers {items:[{digest, updateTimestamp}]} over REST and gRPC', async () => {
      const r = await rest(berth.url, 'GET', `/registry/v1/tags/${latestUid}/history?start=${encodeURIComponent(times[1])}`, { token: owner });
      assert.equal(r.status, 200, r.text);
      assert.deepEqual(r.json, {
        items: [
          { digest: D('b'), updateTimestamp: times[1] },
          { digest: D('c'), updateTimestamp: times[2] },
        ],
      });
      const all = await rest(berth.url, 'GET', `/registry/v1/tags/${latestUid}/history?end=${encodeURIComponent(times[2])}`, { token: owner });
      assert.deepEqual(
        all.json.items.map((i: { digest: string }) => i.digest),
        [D('a'), D('b')],
      );
      const g = await grpcClient(RegistryService, berth.url, owner).listTagHistory({ parentId: latestUid });
      assert.deepEqual(
        g.items.map((i) => i.digest),
        [D('a'), D('b'), D('c')],
      );
    });

    it('needs tag.list at the tag, checked before the tag is looked up', async () => {
      const stranger = await identityWithKeys(berth, owner, berth.orgUid);
      const tok = await stranger.tokenFor(berth.url);
      const existing = await rest(berth.url, 'GET', `/registry/v1/tags/${latestUid}/history`, { token: tok });
      const missing = await rest(berth.url, 'GET', `/registry/v1/tags/${repo}/0123456789abcdef/history`, { token: tok });
      assert.equal(existing.status, 403);
      assert.equal(missing.status, 403);
      const unknown = await rest(berth.url, 'GET', `/registry/v1/tags/${repo}/0123456789abcdef/history`, { token: owner });
      assert.equal(unknown.status, 404);
      assert.equal((await rest(berth.url, 'GET', `/registry/v1/tags/${latestUid}/history`, { token: await puller.tokenFor(berth.url) })).status, 200);
      assert.equal((await rest(berth.url, 'GET', `/registry/v1/tags/${latestUid}/history`, { token: ownerReg })).status, 401);
    });
  });
});

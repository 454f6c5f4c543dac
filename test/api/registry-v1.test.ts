// The v1 registry API (/registry/v1 repos, tags, images) beside v2 on the
// same data: a v1 write is visible in v2 and back, the v1 shapes are the
// reference's (id, create_time, last_updated, items without paging or
// total), PUT replaces the whole resource, CreateRepo's prevent_existing,
// v1's include-by-default tag filters, a missing resource is an empty list,
// each call over REST and gRPC, and bad input on every new parameter.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Code, ConnectError } from '@connectrpc/connect';
import { RegistryService } from '../../src/gen/berth/registry/v1/registry_pb.js';
import { grpcClient, identityWithRole, rest, type RestResult } from '../harness/api-client.js';
import { useBerth, type Berth } from '../harness/berth-process.js';
import { sqlQuery } from '../harness/database.js';
import { RepoClient, imageManifest } from '../harness/registry-gc.js';
import { cliToken, registryHost } from '../harness/registry-client.js';
import { seedImage, seedIndex, type SeededIndex } from '../harness/registry-content.js';
import { alpineLayers, waitForSbom } from '../harness/scan-images.js';
import { skopeoMissing } from '../harness/skopeo.js';
import { pushToTag } from '../harness/tag-moves.js';

const CONFIG = 200; // the config blob size seeded images get

function fieldsOf(r: RestResult): string[] {
  assert.equal(r.status, 400, r.text);
  return r.json.details.find((d: { '@type': string }) => d['@type'].endsWith('BadRequest')).fieldViolations.map((v: { field: string }) => v.field);
}

async function grpcCode(p: Promise<unknown>): Promise<Code> {
  try {
    await p;
  } catch (err) {
    assert.ok(err instanceof ConnectError, String(err));
    return err.code;
  }
  assert.fail('the call succeeded');
}

describe('registry v1 beside v2', () => {
  let berth: Berth;
  let token: string;
  let v1: ReturnType<typeof grpcClient<typeof RegistryService>>;
  /** A repo made through v2 with two seeded images and an index. */
  let repo: string;
  let d1: string;
  let d2: string;
  let index: SeededIndex;
  useBerth(async (b, t) => {
    berth = b;
    token = t;
    v1 = grpcClient(RegistryService, b.url, t);
    repo = (await rest(b.url, 'POST', `/registry/v2/repos/${b.orgUid}`, { token, body: { name: 'v1/app', description: 'from v2' } })).json.uid;
    d1 = await seedImage(b, repo, { layers: [1000] });
    d2 = await seedImage(b, repo, { layers: [2000] });
    index = await seedIndex(b, repo, [
      { architecture: 'amd64', layers: [5000] },
      { architecture: 'arm64', layers: [4000] },
    ]);
  });

  const call = (method: string, path: string, body?: unknown, as = token) => rest(berth.url, method, path, { token: as, body });
  const ok = (r: RestResult) => {
    assert.equal(r.status, 200, r.text);
    return r.json;
  };

  it('creates a repo in v1 that v2 reads, and lists v2 repos in the v1 shape', async () => {
    const created = ok(await call('POST', `/registry/v1/repos/${berth.orgUid}`, { name: 'v1/made', description: 'd', readme: '# made' }));
    assert.deepEqual(Object.keys(created).sort(), ['createTime', 'description', 'id', 'name', 'readme']);
    assert.equal(created.readme, '# made');
    const v2 = ok(await call('GET', `/registry/v2/repos/${created.id}`));
    assert.deepEqual([v2.uid, v2.name, v2.description, v2.createTime], [created.id, 'v1/made', 'd', created.createTime]);
    assert.equal(ok(await call('GET', `/registry/v2/repos/${created.id}/readme`)).content, '# made');
    // And back: the v2 repo in a v1 list, items only, no paging fields.
    const list = ok(await call('GET', `/registry/v1/repos?uidp.children_of=${berth.orgUid}`));
    assert.deepEqual(Object.keys(list), ['items']);
    const mine = list.items.find((r: { id: string }) => r.id === repo);
    assert.deepEqual(mine, { id: repo, name: 'v1/app', readme: '', description: 'from v2', createTime: mine.createTime });
    // By id: v1's Get, readme included; over gRPC the same.
    const one = ok(await call('GET', `/registry/v1/repos?id=${created.id}`));
    assert.deepEqual(one.items, [created]);
    const g = await v1.listRepos({ id: created.id });
    assert.deepEqual(
      g.items.map((r) => [r.id, r.name, r.readme]),
      [[created.id, 'v1/made', '# made']],
    );
    assert.deepEqual(
      ok(await call('GET', `/registry/v1/repos?name=v1%2Fmade`)).items.map((r: { id: string }) => r.id),
      [created.id],
    );
  });

  it('answers a missing repo with an empty list, not NOT_FOUND', async () => {
    const r = await call('GET', `/registry/v1/repos?id=${berth.orgUid}/0123456789abcdef`);
    assert.deepEqual(ok(r), { items: [] });
    assert.deepEqual((await v1.listRepos({ id: `${berth.orgUid}/0123456789abcdef` })).items, []);
    // An id outside the uidp filter's ids is nothing, too.
    assert.deepEqual(ok(await call('GET', `/registry/v1/repos?id=${repo}&uidp.ids=${berth.orgUid}/0123456789abcdef`)), { items: [] });
  });

  it('updates on a name collision unless prevent_existing, and PUT replaces the whole repo', async () => {
    const first = ok(await call('POST', `/registry/v1/repos/${berth.orgUid}`, { name: 'v1/twice', description: 'one', readme: 'r1' }));
    const again = ok(await call('POST', `/registry/v1/repos/${berth.orgUid}`, { name: 'v1/twice', description: 'two' }));
    assert.equal(again.id, first.id, 'the same repo, updated');
    assert.deepEqual([again.description, again.readme], ['two', '']);
    assert.equal(ok(await call('GET', `/registry/v2/repos/${first.id}`)).description, 'two');
    const refused = await rest(berth.url, 'POST', `/registry/v1/repos/${berth.orgUid}?preventExisting=true`, { token, body: { name: 'v1/twice' } });
    assert.equal(refused.status, 409, refused.text);
    assert.equal(refused.json.code, Code.AlreadyExists);
    assert.equal(await grpcCode(v1.createRepo({ parentId: berth.orgUid, repo: { name: 'v1/twice' }, preventExisting: true })), Code.AlreadyExists);
    // PUT: a field left out is emptied; the name is required.
    const put = ok(await call('PUT', `/registry/v1/repos/${first.id}`, { name: 'v1/renamed', readme: '# new' }));
    assert.deepEqual([put.id, put.name, put.description, put.readme], [first.id, 'v1/renamed', '', '# new']);
    const v2 = ok(await call('GET', `/registry/v2/repos/${first.id}`));
    assert.deepEqual([v2.name, v2.description], ['v1/renamed', '']);
    assert.deepEqual(fieldsOf(await call('PUT', `/registry/v1/repos/${first.id}`, { description: 'no name' })), ['repo.name']);
    const g = await v1.updateRepo({ id: first.id, name: 'v1/grpc', description: 'over grpc' });
    assert.deepEqual([g.name, g.description, g.readme], ['v1/grpc', 'over grpc', '']);
    // v2's PATCH is seen by v1.
    ok(await call('PATCH', `/registry/v2/repos/${first.id}`, { description: 'patched' }));
    assert.equal(ok(await call('GET', `/registry/v1/repos?id=${first.id}`)).items[0].description, 'patched');
    // A missing repo: PUT is NOT_FOUND (there is nothing to replace).
    assert.equal((await call('PUT', `/registry/v1/repos/${berth.orgUid}/0123456789abcdef`, { name: 'x' })).status, 404);
  });

  it('asks for repo.update at the repo before a create updates it', async () => {
    ok(await call('POST', `/iam/v2/roles/${berth.orgUid}`, { name: 'v1-repo-creator', capabilities: ['CAP_REPO_CREATE', 'CAP_REPO_LIST'] }));
    const pusher = await identityWithRole(berth.url, token, berth.orgUid, 'v1-repo-creator', berth.orgUid);
    const denied = await call('POST', `/registry/v1/repos/${berth.orgUid}`, { name: 'v1/app', description: 'hijack' }, pusher.token);
    assert.equal(denied.status, 403, denied.text);
    assert.equal(ok(await call('GET', `/registry/v2/repos/${repo}`)).description, 'from v2');
  });

  it('deletes a repo in v1 that v2 then misses, and back', async () => {
    const doomed = ok(await call('POST', `/registry/v1/repos/${berth.orgUid}`, { name: 'v1/doomed' })).id;
    assert.deepEqual(ok(await call('DELETE', `/registry/v1/repos/${doomed}`)), {});
    assert.equal((await call('GET', `/registry/v2/repos/${doomed}`)).status, 404);
    assert.equal((await call('DELETE', `/registry/v1/repos/${doomed}`)).status, 404);
    const other = ok(await call('POST', `/registry/v2/repos/${berth.orgUid}`, { name: 'v1/doomed2' })).uid;
    await v1.deleteRepo({ id: other });
    assert.deepEqual(ok(await call('GET', `/registry/v1/repos?id=${other}`)), { items: [] });
  });

  it('creates, moves (PUT) and deletes tags in v1 over the v2 tags', async () => {
    const tag = ok(await call('POST', `/registry/v1/tags/${repo}`, { name: 'v1', digest: d1 }));
    assert.deepEqual(Object.keys(tag).sort(), ['deprecated', 'digest', 'id', 'lastUpdated', 'name']);
    const v2 = ok(await call('GET', `/registry/v2/tags/${tag.id}`));
    assert.deepEqual([v2.name, v2.digest, v2.updateTime], ['v1', d1, tag.lastUpdated]);
    const moved = ok(await call('PUT', `/registry/v1/tags/${tag.id}`, { name: 'v1', digest: d2, deprecated: true }));
    assert.deepEqual([moved.id, moved.digest, moved.deprecated], [tag.id, d2, true]);
    const seen = ok(await call('GET', `/registry/v2/tags/${tag.id}`));
    assert.deepEqual([seen.digest, seen.deprecated], [d2, true]);
    // The move is in the tag's history.
    const history = ok(await call('GET', `/registry/v1/tags/${tag.id}/history`));
    assert.deepEqual(
      history.items.map((h: { digest: string }) => h.digest),
      [d1, d2],
    );
    // PUT replaces: deprecated left out is false again; the name cannot change.
    assert.equal(ok(await call('PUT', `/registry/v1/tags/${tag.id}`, { name: 'v1', digest: d2 })).deprecated, false);
    assert.deepEqual(fieldsOf(await call('PUT', `/registry/v1/tags/${tag.id}`, { name: 'other', digest: d2 })), ['name']);
    assert.deepEqual(fieldsOf(await call('PUT', `/registry/v1/tags/${tag.id}`, { name: 'v1', digest: 'sha256:nope' })), ['digest']);
    const notHeld = await call('PUT', `/registry/v1/tags/${tag.id}`, { name: 'v1', digest: `sha256:${'0'.repeat(64)}` });
    assert.equal(notHeld.status, 400, notHeld.text);
    // gRPC: the same operations.
    const g = await v1.createTag({ repoId: repo, tag: { name: 'grpc', digest: d1 } });
    assert.equal((await v1.updateTag({ id: g.id, name: 'grpc', digest: d2 })).digest, d2);
    await v1.deleteTag({ id: g.id });
    assert.equal((await call('GET', `/registry/v2/tags/${g.id}`)).status, 404);
    assert.deepEqual(ok(await call('DELETE', `/registry/v1/tags/${tag.id}`)), {});
    assert.equal((await call('DELETE', `/registry/v1/tags/${tag.id}`)).status, 404);
    assert.equal((await call('PUT', `/registry/v1/tags/${tag.id}`, { name: 'v1', digest: d1 })).status, 404);
  });

  it('lists referrer, date and epoch tags unless excluded (v2 hides them unless included)', async () => {
    const names = ['latest', '1.2.3', '1.2', 'latest-dev', `sha256-${'a'.repeat(64)}`, '1.2-20250102', '1.2-r3'];
    for (const name of names) ok(await call('POST', `/registry/v2/tags/${repo}`, { name, digest: name === '1.2-r3' ? d2 : d1 }));
    const v1Names = async (q: string) =>
      ok(await call('GET', `/registry/v1/tags?uidp.children_of=${repo}${q}`))
        .items.map((t: { name: string }) => t.name)
        .sort();
    assert.deepEqual(await v1Names(''), [...names].sort());
    assert.deepEqual(await v1Names('&excludeReferrers=true&excludeDates=true&excludeEpochs=true'), ['1.2', '1.2.3', 'latest', 'latest-dev']);
    assert.deepEqual(await v1Names('&exclude_epochs=true'), names.filter((n) => n !== '1.2-r3').sort());
    const v2 = ok(await call('GET', `/registry/v2/tags?uidp.children_of=${repo}`));
    assert.deepEqual(v2.tags.map((t: { name: string }) => t.name).sort(), ['1.2', '1.2.3', 'latest', 'latest-dev']);
    assert.deepEqual(await v1Names(`&digest=${d2}`), ['1.2-r3']);
    assert.deepEqual(await v1Names('&name=1.2'), ['1.2']);
    const one = ok(await call('GET', `/registry/v2/tags?uidp.children_of=${repo}&name=latest`)).tags[0];
    assert.deepEqual(ok(await call('GET', `/registry/v1/tags?id=${one.uid}`)).items, [
      { id: one.uid, name: 'latest', digest: d1, lastUpdated: one.updateTime, deprecated: false },
    ]);
    assert.deepEqual(ok(await call('GET', `/registry/v1/tags?id=${repo}/0123456789abcdef`)), { items: [] });
    const g = await v1.listTags({ uidp: { childrenOf: repo }, excludeReferrers: true });
    assert.equal(g.items.length, names.length - 1);
    assert.deepEqual(await v1Names('&updatedSince=2999-01-01T00:00:00Z'), []);
  });

  it('summarizes a repo’s tags', async () => {
    // The tags of the previous case: latest, 1.2.3 and 1.2 and the rest at d1, 1.2-r3 at d2.
    const s = ok(await call('GET', `/registry/v1/repotagssummary/${repo}`));
    assert.deepEqual(Object.keys(s).sort(), ['id', 'lastUpdated', 'latestTag', 'latestVersion', 'tagCount']);
    assert.equal(s.id, repo);
    assert.equal(s.tagCount, '7');
    assert.equal(s.latestTag.name, 'latest');
    assert.equal(s.latestTag.digest, d1);
    // The longest other name at latest's digest: the date tag, unless dates are excluded.
    assert.equal(s.latestVersion, `sha256-${'a'.repeat(64)}`);
    const narrowed = ok(await call('GET', `/registry/v1/repotagssummary/${repo}?excludeReferrers=true&excludeDates=true&excludeEpochs=true`));
    assert.deepEqual([narrowed.tagCount, narrowed.latestVersion], ['4', '1.2.3']);
    const g = await v1.getRepoTagsSummary({ repoId: repo, excludeReferrers: true });
    assert.deepEqual([g.tagCount, g.latestVersion], [6n, '1.2-20250102']);
    const empty = ok(await call('POST', `/registry/v2/repos/${berth.orgUid}`, { name: 'v1/untagged' })).uid;
    assert.deepEqual(ok(await call('GET', `/registry/v1/repotagssummary/${empty}`)), { id: empty, tagCount: '0', latestVersion: '' });
    assert.equal((await call('GET', `/registry/v1/repotagssummary/${berth.orgUid}/0123456789abcdef`)).status, 404);
  });

  it('answers architectures and sizes as v2 does, in v1 names', async () => {
    const at = (r: string, d: string, what: string) => `/registry/${r}/repos/${repo}/digests/${d}/${what}`;
    for (const d of [d1, index.digest]) {
      const v2 = ok(await call('GET', at('v2', d, 'architectures')));
      assert.deepEqual(ok(await call('GET', at('v1', d, 'architectures'))), { archs: v2.architectures });
    }
    assert.deepEqual(ok(await call('GET', at('v1', index.digest, 'architectures'))), { archs: ['amd64', 'arm64'] });
    assert.deepEqual(ok(await call('GET', at('v1', index.digest, 'size'))), { size: String(CONFIG + 5000), arch: 'amd64' });
    assert.deepEqual(ok(await call('GET', `${at('v1', index.digest, 'size')}?arch=arm64`)), { size: String(CONFIG + 4000), arch: 'arm64' });
    assert.deepEqual(ok(await call('GET', `${at('v2', index.digest, 'size')}?architecture=arm64`)), { size: String(CONFIG + 4000), architecture: 'arm64' });
    assert.equal((await call('GET', `${at('v1', index.digest, 'size')}?arch=s390x`)).status, 404);
    assert.deepEqual(fieldsOf(await call('GET', `${at('v1', index.digest, 'size')}?arch=a%20b`)), ['arch']);
    assert.deepEqual(fieldsOf(await call('GET', at('v1', 'sha256:zz', 'architectures'))), ['digest']);
    assert.deepEqual((await v1.getArchs({ repoId: repo, digest: index.digest })).archs, ['amd64', 'arm64']);
    const size = await v1.getSize({ repoId: repo, digest: d2 });
    assert.deepEqual([size.size, size.arch], [BigInt(CONFIG + 2000), 'amd64']);
  });

  it('counts the distinct manifest digests of a repo and of a group', async () => {
    // d1, d2, the index and its two images.
    assert.deepEqual(ok(await call('GET', `/registry/v1/digestcount/${repo}`)), { count: '5' });
    const second = ok(await call('POST', `/registry/v2/repos/${berth.orgUid}`, { name: 'v1/second' })).uid;
    await seedImage(berth, second);
    assert.equal((await v1.getManifestDigestCount({ parentId: second })).count, 1n);
    const all = ok(await call('GET', `/registry/v1/digestcount/${berth.orgUid}`));
    assert.ok(Number(all.count) >= 6, all.count);
    assert.deepEqual(ok(await call('GET', `/registry/v1/digestcount/${berth.orgUid}/0123456789abcdef`)), { count: '0' });
  });

  it('reads an image config from the pushed config blob', async () => {
    const client = await RepoClient.open(berth, 'v1/configured');
    const configBytes = Buffer.from(
      JSON.stringify({
        architecture: 'amd64',
        os: 'linux',
        config: {
          User: '65532',
          ExposedPorts: { '8080/tcp': {} },
          Env: ['PATH=/usr/bin'],
          Entrypoint: ['/app'],
          Cmd: ['--serve'],
          Volumes: { '/data': {} },
          WorkingDir: '/work',
          Labels: { 'org.opencontainers.image.title': 'app' },
          StopSignal: 'SIGTERM',
        },
        rootfs: { type: 'layers', diff_ids: [] },
      }),
    );
    const config = { digest: await client.pushBlob(configBytes), size: configBytes.length };
    const layerBytes = Buffer.from('layer');
    const layer = { digest: await client.pushBlob(layerBytes), size: layerBytes.length };
    const digest = await client.putManifest('v1', imageManifest(config, [layer]));
    const configured = ok(await call('GET', `/registry/v1/repos?name=v1%2Fconfigured`)).items[0].id;
    const want = {
      user: '65532',
      exposedPorts: { '8080/tcp': {} },
      env: ['PATH=/usr/bin'],
      entrypoint: ['/app'],
      cmd: ['--serve'],
      volumes: { '/data': {} },
      workingDir: '/work',
      labels: { 'org.opencontainers.image.title': 'app' },
      stopSignal: 'SIGTERM',
    };
    assert.deepEqual(ok(await call('GET', `/registry/v1/repos/${configured}/digests/${digest}/imageconfig`)), want);
    const g = await v1.getImageConfig({ repoId: configured, digest, arch: 'amd64' });
    assert.deepEqual([g.user, g.entrypoint, Object.keys(g.exposedPorts)], ['65532', ['/app'], ['8080/tcp']]);
    assert.equal((await call('GET', `/registry/v1/repos/${configured}/digests/${digest}/imageconfig?arch=arm64`)).status, 404);
    assert.equal((await call('GET', `/registry/v1/repos/${configured}/digests/${d1}/imageconfig`)).status, 404);
    assert.deepEqual(fieldsOf(await call('GET', `/registry/v1/repos/${configured}/digests/${digest}/imageconfig?arch=%2F`)), ['arch']);
    // Seeded images have records but no stored bytes: said so, not an empty config.
    const seeded = await call('GET', `/registry/v1/repos/${repo}/digests/${d1}/imageconfig`);
    assert.equal(seeded.status, 400, seeded.text);
    assert.match(seeded.json.message, /not stored/);
  });

  it('lists the packages of an inventoried image as manifest metadata', { skip: skopeoMissing }, async () => {
    const packages = [
      { name: 'musl', version: '1.2.4-r4', license: 'MIT' },
      { name: 'busybox', version: '1.36.1-r15', license: 'GPL-2.0-only' },
    ];
    const host = registryHost(berth);
    const image = await pushToTag(berth, host, cliToken(berth, host).token, 'v1/scanned', 'v1', { fileLayers: alpineLayers(packages) });
    const digest = image.manifest.digest;
    const scanned = ok(await call('GET', '/registry/v1/repos?name=v1%2Fscanned')).items[0].id;
    const sbom = await waitForSbom(berth.url, token, scanned, digest);
    const path = `/registry/v1/repos/${scanned}/manifestmetdata`;
    const r = ok(await call('GET', `${path}?items=${digest}`));
    assert.deepEqual(Object.keys(r), ['items']);
    assert.equal(r.items.length, 1);
    assert.equal(r.items[0].digest, digest);
    const meta = r.items[0].pkgMetadata as Array<{ purl: string; originPurl: string; license: string }>;
    assert.deepEqual(meta.map((p) => p.purl).sort(), sbom.json.packages.map((p: { purl: string }) => p.purl).sort());
    assert.deepEqual(meta.map((p) => p.license).sort(), ['GPL-2.0-only', 'MIT']);
    assert.ok(meta.every((p) => p.originPurl === ''));
    // The same over gRPC, and as a JSON entry.
    const g = await v1.listManifestMetadata({ repoId: scanned, items: [{ filter: { case: 'imageDigest', value: digest } }] });
    assert.equal(g.items[0].pkgMetadata.length, meta.length);
    const json = ok(await call('GET', `${path}?items=${encodeURIComponent(JSON.stringify({ imageDigest: digest }))}`));
    assert.deepEqual(json, r);
  });

  it('resolves an index entry of manifest metadata by architecture', async () => {
    const path = `/registry/v1/repos/${repo}/manifestmetdata`;
    // The seeded images are never scanned: the amd64 image is found, its inventory is not ready.
    const notReady = await call('GET', `${path}?items=${index.digest}/amd64`);
    assert.equal(notReady.status, 503, notReady.text);
    assert.match(notReady.json.message, new RegExp(index.images[0].digest));
    assert.equal((await call('GET', `${path}?items=${index.digest}/s390x`)).status, 404);
    assert.equal((await call('GET', `${path}?items=sha256:${'0'.repeat(64)}`)).status, 404);
    assert.equal((await call('GET', `/registry/v1/repos/${berth.orgUid}/0123456789abcdef/manifestmetdata?items=${d1}`)).status, 404);
  });

  it('refuses bad input on every new parameter', async () => {
    assert.deepEqual(fieldsOf(await call('POST', `/registry/v1/repos/${berth.orgUid}`, { name: '' })), ['repo.name']);
    assert.deepEqual(fieldsOf(await call('POST', `/registry/v1/repos/${berth.orgUid}`, { name: 'ok', description: 'x'.repeat(256) })), ['repo.description']);
    assert.deepEqual(fieldsOf(await call('POST', `/registry/v1/repos/${berth.orgUid}`, { name: 'ok', readme: 'x'.repeat(1024 * 1024 + 1) })), ['repo.readme']);
    assert.equal((await call('POST', `/registry/v1/repos/${berth.orgUid}?preventExisting=maybe`, { name: 'ok' })).status, 400);
    assert.deepEqual(fieldsOf(await call('GET', '/registry/v1/repos?id=not-a-uid')), ['id']);
    assert.deepEqual(fieldsOf(await call('GET', '/registry/v1/tags?id=not-a-uid')), ['id']);
    assert.equal((await call('GET', '/registry/v1/tags?excludeDates=perhaps')).status, 400);
    assert.equal((await call('GET', '/registry/v1/tags?updatedSince=yesterday')).status, 400);
    assert.equal((await call('GET', '/registry/v1/repos?uidp.children_of=zzz')).status, 400);
    assert.deepEqual(fieldsOf(await call('POST', `/registry/v1/tags/${repo}`, { name: '.bad', digest: d1 })), ['tag.name']);
    assert.deepEqual(fieldsOf(await call('POST', `/registry/v1/tags/${repo}`, { name: 'ok', digest: 'md5:1' })), ['tag.digest']);
    assert.equal((await call('GET', `/registry/v1/repotagssummary/${repo}?excludeEpochs=2`)).status, 400);
    assert.equal((await call('GET', '/registry/v1/repotagssummary/not-a-uid')).status, 400);
    assert.equal((await call('GET', '/registry/v1/digestcount/not-a-uid')).status, 400);
    assert.equal((await call('PUT', `/registry/v1/repos/${repo}`, { name: 'nul\u0000' })).status, 400);
    const meta = `/registry/v1/repos/${repo}/manifestmetdata`;
    assert.deepEqual(fieldsOf(await call('GET', meta)), ['items']);
    assert.deepEqual(fieldsOf(await call('GET', `${meta}?items=sha256:nope`)), ['items[0]']);
    assert.deepEqual(fieldsOf(await call('GET', `${meta}?items=${index.digest}/a%20b`)), ['items[0].index_filter.arch']);
    const many = Array.from({ length: 101 }, () => ({ filter: { case: 'imageDigest' as const, value: d1 } }));
    assert.equal(await grpcCode(v1.listManifestMetadata({ repoId: repo, items: many })), Code.InvalidArgument);
    assert.equal((await call('GET', `${meta}?items=${encodeURIComponent('{"imageDigest": 3}')}`)).status, 400);
    assert.equal(await grpcCode(v1.listRepos({ id: 'not-a-uid' })), Code.InvalidArgument);
    assert.equal(await grpcCode(v1.listManifestMetadata({ repoId: repo, items: [{}] })), Code.InvalidArgument);
    assert.equal(await grpcCode(v1.getSize({ repoId: repo, digest: d1, arch: 'x y' })), Code.InvalidArgument);
    assert.equal(ok(await call('GET', `/registry/v2/repos/${repo}`)).description, 'from v2', 'nothing changed');
  });
  it('refuses a v1 list past its bound instead of cutting it, and answers exactly the bound', async () => {
    // 1,000 repos planted in a group of their own (an API create each would dominate the file's time).
    const group = ok(await call('POST', `/iam/v2/groups/${berth.orgUid}`, { name: 'v1-many' })).uid;
    const now = new Date().toISOString();
    const rows = Array.from({ length: 1000 }, (_, i) => `('${group}/${i.toString(16).padStart(16, '0')}', '${group}', 'r${i}', '', '', '${now}', '${now}')`);
    for (let i = 0; i < rows.length; i += 250) {
      await sqlQuery(
        berth,
        `insert into repos (uid, parent_uid, name, description, readme, create_time, update_time) values ${rows.slice(i, i + 250).join(', ')}`,
      );
    }
    const exactly = ok(await call('GET', `/registry/v1/repos?uidp.children_of=${group}`));
    assert.equal(exactly.items.length, 1000);
    ok(await call('POST', `/registry/v1/repos/${group}`, { name: 'one-more' }));
    const over = await call('GET', `/registry/v1/repos?uidp.children_of=${group}`);
    assert.equal(over.status, 400, over.text);
    assert.match(over.json.message, /more than 1000 repos match/);
    assert.equal(await grpcCode(v1.listRepos({ uidp: { childrenOf: group } })), Code.FailedPrecondition);
    assert.equal(ok(await call('GET', `/registry/v1/repos?uidp.children_of=${group}&name=one-more`)).items.length, 1);
  });
});

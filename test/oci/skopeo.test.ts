// The registry with a real client: Debian's skopeo pushes, copies, pulls,
// inspects, lists tags and deletes through the Docker token flow, with the
// owner's registry-audience token and anonymously, single- and multi-arch;
// then the API and the history endpoint show what was pushed, and a tag set or
// deleted through the API is what the registry serves. Copies keep digests
// (--preserve-digests), so every digest is checked against the layout's.
import assert from 'node:assert/strict';
import { readFileSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { before, describe, it } from 'node:test';
import { rest } from '../harness/api-client.js';
import { useBerth, type Berth } from '../harness/berth-process.js';
import { writeImage, writeMultiArchImage, type WrittenImage } from '../harness/oci-layout.js';
import { basic, cliToken, registryGet, registryHost, tokenGet } from '../harness/registry-client.js';
import { creds, oneImageCreds, skopeo, skopeoMissing } from '../harness/skopeo.js';

const tmp = (p: string) => mkdtempSync(join(tmpdir(), `berth-${p}-`));

describe('the registry with skopeo', { skip: skopeoMissing }, () => {
  let berth: Berth;
  let owner: string;
  let host: string;
  let regToken: string;
  let org: string;

  useBerth((b, t) => {
    berth = b;
    owner = t;
  });

  before(() => {
    host = registryHost(berth);
    regToken = cliToken(berth, host).token;
    org = berth.orgName;
  });

  const ref = (repo: string, tag: string) => `docker://${host}/${org}/${repo}:${tag}`;
  const push = (layout: string, tag: string, dest: string, all = false) =>
    skopeo(['copy', '--preserve-digests', ...(all ? ['--all'] : []), ...creds('dest', '_token', regToken), `oci:${layout}:${tag}`, dest]);

  const repoUid = async (name: string): Promise<string> => {
    const r = await rest(berth.url, 'GET', `/registry/v2/repos?uidp.children_of=${berth.orgUid}&page_size=100`, { token: owner });
    const repo = r.json.repos.find((x: { name: string }) => x.name === name);
    assert.ok(repo, `repo ${name} is listed by the API: ${r.text}`);
    return repo.uid;
  };

  it('pushes a single-arch image that creates its repo, then inspects, lists tags and pulls it back byte for byte', async () => {
    const layout = tmp('img');
    const image: WrittenImage = await writeImage(layout, 'v1', { layers: [3000, 70_000] });
    const pushed = await push(layout, 'v1', ref('tools/app', 'v1'));
    assert.equal(pushed.code, 0, pushed.stderr);

    const inspect = await skopeo(['inspect', '--raw', ...oneImageCreds('_token', regToken), ref('tools/app', 'v1')]);
    assert.equal(inspect.code, 0, inspect.stderr);
    assert.equal(JSON.parse(inspect.stdout).config.digest, image.config.digest);
    const digest = await skopeo(['inspect', '--format', '{{.Digest}}', ...oneImageCreds('_token', regToken), ref('tools/app', 'v1')]);
    assert.equal(digest.stdout.trim(), image.manifest.digest);

    const tags = await skopeo(['list-tags', ...oneImageCreds('_token', regToken), `docker://${host}/${org}/tools/app`]);
    assert.equal(tags.code, 0, tags.stderr);
    assert.deepEqual(JSON.parse(tags.stdout).Tags, ['v1']);

    const back = tmp('pull');
    const pulled = await skopeo(['copy', '--preserve-digests', ...creds('src', '_token', regToken), ref('tools/app', 'v1'), `oci:${back}:v1`]);
    assert.equal(pulled.code, 0, pulled.stderr);
    for (const l of image.layers) {
      const hex = l.digest.split(':')[1];
      assert.deepEqual(readFileSync(join(back, 'blobs', 'sha256', hex)), readFileSync(join(layout, 'blobs', 'sha256', hex)));
    }

    // The API sees the repo and the tag at the pushed digest; the history endpoint has the push.
    const uid = await repoUid('tools/app');
    const apiTags = await rest(berth.url, 'GET', `/registry/v2/tags?uidp.children_of=${uid}`, { token: owner });
    assert.deepEqual(
      apiTags.json.tags.map((t: { name: string; digest: string }) => [t.name, t.digest]),
      [['v1', image.manifest.digest]],
    );
    const history = await registryGet(berth, `/v2/${org}/tools/app/_berth/history/v1`, `Bearer ${regToken}`);
    assert.equal(history.status, 200, history.text);
    assert.deepEqual(
      history.json.history.map((h: { digest: string }) => h.digest),
      [image.manifest.digest],
    );
  });

  it('pushes a multi-arch image index with --all and copies it between repos', async () => {
    const layout = tmp('multi');
    const written = await writeMultiArchImage(layout, 'multi', [{ architecture: 'amd64' }, { architecture: 'arm64', variant: 'v8', layers: [5000] }]);
    const pushed = await push(layout, 'multi', ref('multi', '1.0'), true);
    assert.equal(pushed.code, 0, pushed.stderr);
    const raw = await skopeo(['inspect', '--raw', ...oneImageCreds('_token', regToken), ref('multi', '1.0')]);
    assert.equal(raw.code, 0, raw.stderr);
    const index = JSON.parse(raw.stdout);
    assert.deepEqual(
      index.manifests.map((m: { digest: string }) => m.digest),
      written.images.map((i) => i.manifest.digest),
    );
    // registry to registry: blobs are mounted or re-pushed, the index arrives whole
    const copied = await skopeo([
      'copy',
      '--all',
      '--preserve-digests',
      ...creds('src', '_token', regToken),
      ...creds('dest', '_token', regToken),
      ref('multi', '1.0'),
      ref('multi-copy', 'latest'),
    ]);
    assert.equal(copied.code, 0, copied.stderr);
    const digest = await skopeo(['inspect', '--raw', ...oneImageCreds('_token', regToken), ref('multi-copy', 'latest')]);
    assert.equal(digest.stdout, raw.stdout);
    // one platform out of the index
    const arm = await skopeo([
      'inspect',
      '--override-arch',
      'arm64',
      '--override-variant',
      'v8',
      '--format',
      '{{.Architecture}}',
      ...oneImageCreds('_token', regToken),
      ref('multi', '1.0'),
    ]);
    assert.equal(arm.code, 0, arm.stderr);
    assert.equal(arm.stdout.trim(), 'arm64');
    const byDigest = await skopeo([
      'inspect',
      '--raw',
      ...oneImageCreds('_token', regToken),
      `docker://${host}/${org}/multi@${written.images[1].manifest.digest}`,
    ]);
    assert.equal(JSON.parse(byDigest.stdout).layers[0].size, 5000);
    // The Images API reads what the push stored: the index's architectures and each platform's size.
    const uid = await repoUid('multi');
    const archs = await rest(berth.url, 'GET', `/registry/v2/repos/${uid}/digests/${written.index.digest}/architectures`, { token: owner });
    assert.equal(archs.status, 200, archs.text);
    assert.deepEqual([...archs.json.architectures].sort(), ['amd64', 'arm64']);
    const armSize = await rest(berth.url, 'GET', `/registry/v2/repos/${uid}/digests/${written.index.digest}/size?architecture=arm64`, { token: owner });
    assert.equal(armSize.json.size, String(written.images[1].size));
    const amdSize = await rest(berth.url, 'GET', `/registry/v2/repos/${uid}/digests/${written.index.digest}/size`, { token: owner });
    assert.deepEqual(amdSize.json, { size: String(written.images[0].size), architecture: 'amd64' });
    // a single image's architecture comes from its config blob, read at push time
    const single = await rest(berth.url, 'GET', `/registry/v2/repos/${uid}/digests/${written.images[1].manifest.digest}/architectures`, { token: owner });
    assert.deepEqual(single.json.architectures, ['arm64']);
  });

  it('deletes an image by digest with skopeo delete, which removes its tags', async () => {
    const layout = tmp('del');
    const image = await writeImage(layout, 'x', {});
    assert.equal((await push(layout, 'x', ref('doomed', 'x'))).code, 0);
    const del = await skopeo(['delete', ...oneImageCreds('_token', regToken), ref('doomed', 'x')]);
    assert.equal(del.code, 0, del.stderr);
    const gone = await skopeo(['inspect', '--raw', ...oneImageCreds('_token', regToken), `docker://${host}/${org}/doomed@${image.manifest.digest}`]);
    assert.notEqual(gone.code, 0);
    const tags = await skopeo(['list-tags', ...oneImageCreds('_token', regToken), `docker://${host}/${org}/doomed`]);
    assert.deepEqual(JSON.parse(tags.stdout).Tags, []);
  });

  it('serves the tags the API sets and deletes, and records both in the history', async () => {
    const layout = tmp('api');
    const image = await writeImage(layout, 'a', {});
    assert.equal((await push(layout, 'a', ref('apitags', 'a'))).code, 0);
    const uid = await repoUid('apitags');
    const created = await rest(berth.url, 'POST', `/registry/v2/tags/${uid}`, { token: owner, body: { name: 'stable', digest: image.manifest.digest } });
    assert.equal(created.status, 200, created.text);
    const viaTag = await skopeo(['inspect', '--format', '{{.Digest}}', ...oneImageCreds('_token', regToken), ref('apitags', 'stable')]);
    assert.equal(viaTag.stdout.trim(), image.manifest.digest);
    const history = await rest(berth.url, 'GET', `/registry/v1/tags/${created.json.uid}/history`, { token: owner });
    assert.equal(history.status, 200, history.text);
    assert.deepEqual(
      history.json.items.map((i: { digest: string }) => i.digest),
      [image.manifest.digest],
    );
    assert.equal((await rest(berth.url, 'DELETE', `/registry/v2/tags/${created.json.uid}`, { token: owner })).status, 200);
    const after = await skopeo(['inspect', ...oneImageCreds('_token', regToken), ref('apitags', 'stable')]);
    assert.notEqual(after.code, 0);
    // The history outlives the tag on the registry host.
    const kept = await registryGet(berth, `/v2/${org}/apitags/_berth/history/stable`, `Bearer ${regToken}`);
    assert.equal(kept.status, 200, kept.text);
    assert.deepEqual(
      kept.json.history.map((h: { digest: string }) => h.digest),
      [image.manifest.digest],
    );
  });

  it('lets anyone pull the public organization at latest and latest-dev only, and push nothing', async () => {
    const pub = await rest(berth.url, 'POST', '/iam/v2/groups', { token: owner, body: { name: 'public' } });
    assert.equal(pub.status, 200, pub.text);
    const layout = tmp('pub');
    await writeImage(layout, 'p', {});
    for (const tag of ['latest', '1.0']) {
      const r = await skopeo(['copy', '--preserve-digests', ...creds('dest', '_token', regToken), `oci:${layout}:p`, `docker://${host}/public/base:${tag}`]);
      assert.equal(r.code, 0, r.stderr);
    }
    const anonymous = await skopeo(['copy', '--preserve-digests', ...creds('src'), `docker://${host}/public/base:latest`, `oci:${tmp('anon')}:x`]);
    assert.equal(anonymous.code, 0, anonymous.stderr);
    const paid = await skopeo(['inspect', ...oneImageCreds(), `docker://${host}/public/base:1.0`]);
    assert.notEqual(paid.code, 0, 'a non-free tag is refused to an anonymous caller');
    const anonPush = await skopeo(['copy', ...creds('dest'), `oci:${layout}:p`, `docker://${host}/public/base:mine`]);
    assert.notEqual(anonPush.code, 0);
    const privatePull = await skopeo(['inspect', ...oneImageCreds(), ref('tools/app', 'v1')]);
    assert.notEqual(privatePull.code, 0, 'nothing outside the public organization is anonymous');
    // the token service itself: anonymous pull on the org's repo grants nothing
    const t = await tokenGet(berth, [`repository:${org}/tools/app:pull`]);
    assert.deepEqual(t.status === 200 ? JSON.parse(Buffer.from(t.json.token.split('.')[1], 'base64url').toString()).access[0].actions : [], []);
    assert.ok(basic); // keep the import honest for readers: Basic is what skopeo sends
  });
});

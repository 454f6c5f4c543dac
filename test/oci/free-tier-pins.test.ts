// An anonymous (free-tier) token of the public organization pins an image by
// digest, as the tag history is there for: it reaches every digest `latest`
// and `latest-dev` point to now or pointed to before — index, platform
// images, configs and layers — and nothing else: not what only another tag or
// no tag points to, and nothing of a private organization. Content is pushed
// over HTTP with the owner's token, then read with an anonymous token from
// /token as docker and skopeo fetch it.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { before, describe, it } from 'node:test';
import { rest } from '../harness/api-client.js';
import { useBerth, type Berth } from '../harness/berth-process.js';
import { registryHost, tokenGet } from '../harness/registry-client.js';
import { imageManifest, RepoClient } from '../harness/registry-gc.js';
import { creds, skopeo, skopeoMissing } from '../harness/skopeo.js';

const OCI_INDEX = 'application/vnd.oci.image.index.v1+json';
const OCI_MANIFEST = 'application/vnd.oci.image.manifest.v1+json';

interface Image {
  digest: string;
  size: number;
  blobs: string[];
}

/** Pushes a config, one layer and the manifest (by `tag`, or by digest). */
async function pushImage(c: RepoClient, architecture: string, tag?: string): Promise<Image> {
  const config = Buffer.from(JSON.stringify({ architecture, os: 'linux', rootfs: { type: 'layers', diff_ids: [] }, nonce: randomBytes(8).toString('hex') }));
  const layer = randomBytes(1200);
  const cfg = { digest: await c.pushBlob(config), size: config.length };
  const l = { digest: await c.pushBlob(layer), size: layer.length };
  const body = imageManifest(cfg, [l]);
  const digest = await c.putManifest(tag, body);
  return { digest, size: Buffer.byteLength(JSON.stringify(body)), blobs: [cfg.digest, l.digest] };
}

function pushIndex(c: RepoClient, tag: string, images: Array<Image & { architecture: string }>): Promise<string> {
  return c.putManifest(tag, {
    schemaVersion: 2,
    mediaType: OCI_INDEX,
    manifests: images.map((i) => ({ mediaType: OCI_MANIFEST, digest: i.digest, size: i.size, platform: { os: 'linux', architecture: i.architecture } })),
  });
}

describe('free-tier pins by digest', () => {
  let berth: Berth;
  let owner: string;
  let anon: RepoClient;
  let owned: RepoClient;
  // public/py: latest went index(amd64, arm64) → single image; latest-dev went dev1 → dev2; 1.0 and an untagged image beside them.
  let oldIndex: string;
  let amd: Image;
  let arm: Image;
  let current: Image;
  let dev1: Image;
  let dev2: Image;
  let paid: Image;
  let untagged: Image;

  useBerth((b, t) => {
    berth = b;
    owner = t;
  });

  before(async () => {
    const pub = await rest(berth.url, 'POST', '/iam/v2/groups', { token: owner, body: { name: 'public' } });
    assert.equal(pub.status, 200, pub.text);
    owned = await RepoClient.open(berth, 'py', 'public');
    amd = await pushImage(owned, 'amd64');
    arm = await pushImage(owned, 'arm64');
    oldIndex = await pushIndex(owned, 'latest', [
      { ...amd, architecture: 'amd64' },
      { ...arm, architecture: 'arm64' },
    ]);
    current = await pushImage(owned, 'amd64', 'latest');
    dev1 = await pushImage(owned, 'amd64', 'latest-dev');
    dev2 = await pushImage(owned, 'amd64', 'latest-dev');
    paid = await pushImage(owned, 'amd64', '1.0');
    untagged = await pushImage(owned, 'amd64');
    const t = await tokenGet(berth, ['repository:public/py:pull']);
    assert.equal(t.status, 200, t.text);
    anon = new RepoClient(berth, 'py', t.json.token, 'public');
  });

  const get = async (kind: 'manifests' | 'blobs', ref: string, as = anon) => {
    const r = await as.send('GET', `/v2/${as.name}/${kind}/${ref}`, undefined, { accept: `${OCI_INDEX}, ${OCI_MANIFEST}` });
    return { status: r.status, code: r.status >= 400 ? JSON.parse(r.text).errors[0].code : undefined };
  };

  it('lists the digests to pin in the history of latest, readable anonymously', async () => {
    const h = await anon.send('GET', '/v2/public/py/_berth/history/latest');
    assert.equal(h.status, 200, h.text);
    assert.deepEqual(
      JSON.parse(h.text).history.map((r: { digest: string }) => r.digest),
      [oldIndex, current.digest],
    );
  });

  it('reaches every digest latest and latest-dev point or pointed to, with their index children, configs and layers', async () => {
    const manifests = [oldIndex, amd.digest, arm.digest, current.digest, dev1.digest, dev2.digest];
    for (const d of manifests) assert.deepEqual(await get('manifests', d), { status: 200, code: undefined }, `manifest ${d}`);
    for (const d of [...amd.blobs, ...arm.blobs, ...current.blobs, ...dev1.blobs, ...dev2.blobs]) {
      assert.deepEqual(await get('blobs', d), { status: 200, code: undefined }, `blob ${d}`);
    }
    assert.deepEqual(await get('manifests', 'latest'), { status: 200, code: undefined });
  });

  it('refuses a digest only another tag or no tag points to, and other tags', async () => {
    for (const d of [paid.digest, untagged.digest]) assert.deepEqual(await get('manifests', d), { status: 403, code: 'DENIED' }, `manifest ${d}`);
    for (const d of [...paid.blobs, ...untagged.blobs]) assert.deepEqual(await get('blobs', d), { status: 403, code: 'DENIED' }, `blob ${d}`);
    assert.deepEqual(await get('manifests', '1.0'), { status: 403, code: 'DENIED' });
    // The owner reads them all: the refusals are the free tier's.
    assert.deepEqual(await get('manifests', paid.digest, owned), { status: 200, code: undefined });
  });

  it('follows the tags as they move: a digest latest-dev moves to becomes reachable, and stays so once it moves on', async () => {
    const later = await pushImage(owned, 'amd64');
    assert.deepEqual(await get('manifests', later.digest), { status: 403, code: 'DENIED' });
    await owned.putManifest('latest-dev', JSON.parse((await owned.send('GET', `/v2/public/py/manifests/${later.digest}`)).text));
    await pushImage(owned, 'amd64', 'latest-dev');
    assert.deepEqual(await get('manifests', later.digest), { status: 200, code: undefined });
    assert.deepEqual(await get('blobs', later.blobs[1]), { status: 200, code: undefined });
  });

  it('reaches nothing of a private organization anonymously', async () => {
    const priv = await RepoClient.open(berth, 'py');
    const img = await pushImage(priv, 'amd64', 'latest');
    const t = await tokenGet(berth, [`repository:${berth.orgName}/py:pull`]);
    const stranger = new RepoClient(berth, 'py', t.json.token);
    assert.deepEqual(await get('manifests', img.digest, stranger), { status: 401, code: 'UNAUTHORIZED' });
    assert.deepEqual(await get('manifests', 'latest', stranger), { status: 401, code: 'UNAUTHORIZED' });
    assert.deepEqual(await get('blobs', img.blobs[1], stranger), { status: 401, code: 'UNAUTHORIZED' });
  });

  it('lets skopeo copy an older digest of latest anonymously, every platform of it', { skip: skopeoMissing }, async () => {
    const out = mkdtempSync(join(tmpdir(), 'berth-pin-'));
    const r = await skopeo([
      'copy',
      '--all',
      '--preserve-digests',
      ...creds('src'),
      `docker://${registryHost(berth)}/public/py@${oldIndex}`,
      `oci:${out}:pinned`,
    ]);
    assert.equal(r.code, 0, r.stderr);
    const index = JSON.parse(readFileSync(join(out, 'index.json'), 'utf8'));
    assert.equal(index.manifests[0].digest, oldIndex);
  });
});

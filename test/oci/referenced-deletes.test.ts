// Deletes that would break a stored image are refused: a manifest a stored
// index of the repo lists, and a blob a stored manifest of the repo uses as
// config or layer, answer 403 DENIED naming what still refers to them, and
// the image keeps pulling. Once the index or manifest is gone they delete as
// before (202). "Refers to" is per repository, and a subject is no reference
// (the spec allows a referrer whose subject is missing). Raw HTTP with a
// registry token, as a client deleting by digest sends it.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { describe, it } from 'node:test';
import { useBerth, type Berth } from '../harness/berth-process.js';
import { imageManifest, RepoClient } from '../harness/registry-gc.js';

const OCI_INDEX = 'application/vnd.oci.image.index.v1+json';
const OCI_MANIFEST = 'application/vnd.oci.image.manifest.v1+json';

interface Pushed {
  digest: string;
  size: number;
  config: string;
  layers: string[];
}

/** Pushes a config, one layer and the image manifest into each repo (by tag, or by digest when `reference` is undefined). */
async function pushImage(into: RepoClient | RepoClient[], reference?: string, subject?: { digest: string; size: number }): Promise<Pushed> {
  const config = Buffer.from(JSON.stringify({ architecture: 'amd64', os: 'linux', nonce: randomBytes(8).toString('hex') }));
  const layer = randomBytes(1500);
  let pushed: Pushed | undefined;
  for (const c of Array.isArray(into) ? into : [into]) {
    const cfg = { digest: await c.pushBlob(config), size: config.length };
    const l = { digest: await c.pushBlob(layer), size: layer.length };
    const body = imageManifest(cfg, [l], subject);
    const digest = await c.putManifest(reference, body);
    pushed = { digest, size: Buffer.byteLength(JSON.stringify(body)), config: cfg.digest, layers: [l.digest] };
  }
  return pushed as Pushed;
}

/** Pushes an index over `images` under `reference`; its digest. */
function pushIndex(c: RepoClient, reference: string | undefined, images: Pushed[]): Promise<string> {
  return c.putManifest(reference, {
    schemaVersion: 2,
    mediaType: OCI_INDEX,
    manifests: images.map((i) => ({ mediaType: OCI_MANIFEST, digest: i.digest, size: i.size, platform: { os: 'linux', architecture: 'amd64' } })),
  });
}

async function del(c: RepoClient, kind: 'manifests' | 'blobs', digest: string) {
  const r = await c.send('DELETE', `/v2/${c.name}/${kind}/${digest}`);
  return { status: r.status, body: r.text === '' ? undefined : JSON.parse(r.text) };
}

describe('deletes of content a stored image still refers to', () => {
  let berth: Berth;

  useBerth((b) => {
    berth = b;
  });

  it('refuses to delete a manifest a stored index lists, naming the index, until the index is deleted', async () => {
    const c = await RepoClient.open(berth, 'multi');
    const amd = await pushImage(c);
    const index = await pushIndex(c, 'v1', [amd]);

    const refused = await del(c, 'manifests', amd.digest);
    assert.equal(refused.status, 403);
    assert.equal(refused.body.errors[0].code, 'DENIED');
    assert.deepEqual(refused.body.errors[0].detail, { digest: amd.digest, listedBy: [index] });
    assert.equal(await c.manifestStatus(amd.digest), 200, 'the platform image still pulls');
    assert.equal(await c.manifestStatus('v1'), 200);

    assert.equal((await del(c, 'manifests', index)).status, 202);
    assert.equal((await del(c, 'manifests', amd.digest)).status, 202);
    assert.equal(await c.manifestStatus(amd.digest), 404);
  });

  it('refuses to delete a blob a stored manifest uses as config or layer, until the manifest is deleted', async () => {
    const c = await RepoClient.open(berth, 'single');
    const img = await pushImage(c, 'v1');
    for (const blob of [img.config, img.layers[0]]) {
      const refused = await del(c, 'blobs', blob);
      assert.equal(refused.status, 403, blob);
      assert.equal(refused.body.errors[0].code, 'DENIED');
      assert.deepEqual(refused.body.errors[0].detail, { digest: blob, usedBy: [img.digest] });
      assert.equal(await c.blobStatus(blob), 200, 'the blob still pulls');
    }
    const unused = await c.pushBlob(randomBytes(700));
    assert.equal((await del(c, 'blobs', unused)).status, 202, 'a blob no manifest uses is deleted as before');

    assert.equal((await del(c, 'manifests', img.digest)).status, 202, 'a tagged manifest is deleted, with its tag');
    assert.equal(await c.manifestStatus('v1'), 404);
    for (const blob of [img.config, img.layers[0]]) assert.equal((await del(c, 'blobs', blob)).status, 202, blob);
    assert.equal((await del(c, 'blobs', img.config)).status, 404, 'BLOB_UNKNOWN once unlinked');
  });

  it('judges references within the repository only', async () => {
    const a = await RepoClient.open(berth, 'scope-a');
    const b = await RepoClient.open(berth, 'scope-b');
    const inA = await pushImage([a, b]); // the same bytes, so the same digests, in both repos
    await pushIndex(b, 'v1', [inA]);

    assert.equal((await del(a, 'manifests', inA.digest)).status, 202, "b's index does not hold a's copy");
    assert.equal((await del(a, 'blobs', inA.layers[0])).status, 202, "b's manifest does not hold a's link");
    assert.equal((await del(b, 'manifests', inA.digest)).status, 403);
    assert.equal((await del(b, 'blobs', inA.layers[0])).status, 403);
  });

  it('deletes a manifest that a referrer names as subject, and keeps the referrer', async () => {
    const c = await RepoClient.open(berth, 'signed');
    const img = await pushImage(c);
    const sig = await pushImage(c, undefined, { digest: img.digest, size: img.size });
    assert.equal((await del(c, 'manifests', img.digest)).status, 202);
    assert.equal(await c.manifestStatus(sig.digest), 200);
  });
});

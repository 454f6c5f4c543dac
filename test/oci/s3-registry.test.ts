// The registry on an S3 blob store (Ceph RGW, test/harness/s3-test-bucket.ts),
// through its HTTP surface: skopeo pushes and pulls a multi-arch image with a
// layer of several multipart parts; an upload started before a restart goes on
// after it, a wrong digest is refused and never visible; with --blob-redirect a
// pull is a 307 to a presigned URL that serves the bytes; `berth registry gc`
// collects on S3 beside the server; a store that cannot
// be reached is answered 503 with Retry-After, and the upload keeps what was
// acknowledged. One database and one bucket prefix for the whole file, the
// server restarted on them between steps.
import assert from 'node:assert/strict';
import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { type Berth, dropDatabase, freshDatabase, startBerth } from '../harness/berth-process.js';
import { writeMultiArchImage, type WrittenIndex } from '../harness/oci-layout.js';
import { cliToken, registryHost } from '../harness/registry-client.js';
import { gc } from '../harness/registry-gc.js';
import { emptyPrefix, freshPrefix, keysUnder, type TestBucket, testBucket } from '../harness/s3-test-bucket.js';
import { creds, skopeo, skopeoMissing } from '../harness/skopeo.js';

const MiB = 1 << 20;
const bucket = await testBucket();
const tmp = (p: string) => mkdtempSync(join(tmpdir(), `berth-${p}-`));
const sha256 = (b: Uint8Array) => `sha256:${createHash('sha256').update(b).digest('hex')}`;

describe('the registry on S3', { skip: typeof bucket === 'string' ? bucket : skopeoMissing }, () => {
  const b = bucket as TestBucket;
  const prefix = freshPrefix();
  const dataDir = tmp('s3-data');
  let databaseUrl: string | undefined;
  let berth: Berth | undefined;
  let layout: string;
  let image: WrittenIndex;

  const start = async (endpoint: string, extra: string[] = []): Promise<Berth> => {
    await berth?.stop();
    const args = ['--blob-store', `s3://${b.bucket}/${prefix}`, '--s3-endpoint', endpoint, '--s3-path-style', ...extra];
    berth = await startBerth({ dataDir, databaseUrl, extraArgs: args, env: b.env });
    return berth;
  };
  const tokens = new Map<Berth, string>(); // one per server: minting one runs the CLI
  const auth = (s: Berth) => {
    if (!tokens.has(s)) tokens.set(s, cliToken(s, registryHost(s)).token);
    return { authorization: `Bearer ${tokens.get(s)}` };
  };
  const reg = (s: Berth, path: string, init: RequestInit = {}) =>
    fetch(`${s.registryUrl}${path}`, { redirect: 'manual', ...init, headers: { ...auth(s), ...(init.headers as Record<string, string>) } });

  before(async () => {
    Object.assign(process.env, b.env); // for `berth registry gc`, which reaches the bucket as the server does
    databaseUrl = await freshDatabase();
    layout = tmp('s3-img');
    image = await writeMultiArchImage(layout, 'v1', [
      { architecture: 'amd64', layers: [12 * MiB + 5, 4000] }, // more than one part
      { architecture: 'arm64', layers: [70_000] },
    ]);
  });
  after(async () => {
    await berth?.stop();
    await dropDatabase(databaseUrl);
    rmSync(dataDir, { recursive: true, force: true });
    await emptyPrefix(b, `${prefix}/`);
  });

  it('takes a multi-arch push from skopeo and serves it back byte for byte', async () => {
    const s = await start(b.endpoint);
    const token = auth(s).authorization.slice('Bearer '.length);
    const ref = `docker://${registryHost(s)}/${s.orgName}/s3/app:v1`;
    const pushed = await skopeo(['copy', '--all', '--preserve-digests', ...creds('dest', '_token', token), `oci:${layout}:v1`, ref]);
    assert.equal(pushed.code, 0, pushed.stderr);
    const back = tmp('s3-pull');
    const pulled = await skopeo(['copy', '--all', '--preserve-digests', ...creds('src', '_token', token), ref, `oci:${back}:v1`]);
    assert.equal(pulled.code, 0, pulled.stderr);
    for (const l of image.images.flatMap((i) => [i.config, ...i.layers])) {
      const hex = l.digest.split(':')[1];
      assert.deepEqual(readFileSync(join(back, 'blobs', 'sha256', hex)), readFileSync(join(layout, 'blobs', 'sha256', hex)));
    }
  });

  it('continues an upload after a restart, refuses a wrong digest without showing it, and redirects pulls with --blob-redirect', async () => {
    let s = berth!; // the server of the push above, on the store as it is
    const repo = `/v2/${s.orgName}/s3/app`;
    const bytes = randomBytes(7 * MiB);
    const started = await reg(s, `${repo}/blobs/uploads/`, { method: 'POST' });
    assert.equal(started.status, 202, await started.text());
    const path = new URL(started.headers.get('location')!, s.registryUrl).pathname;
    const first = await reg(s, path, { method: 'PATCH', body: bytes.subarray(0, 3 * MiB), headers: { 'content-type': 'application/octet-stream' } });
    assert.equal(first.status, 202, await first.text());

    s = await start(b.endpoint, ['--blob-redirect']);
    const status = await reg(s, path);
    assert.equal(status.status, 204);
    assert.equal(status.headers.get('range'), `0-${3 * MiB - 1}`);
    const second = await reg(s, path, {
      method: 'PATCH',
      body: bytes.subarray(3 * MiB),
      headers: { 'content-type': 'application/octet-stream', 'content-range': `${3 * MiB}-${bytes.length - 1}` },
    });
    assert.equal(second.status, 202, await second.text());
    const wrong = sha256(randomBytes(8));
    const refused = await reg(s, `${path}?digest=${wrong}`, { method: 'PUT' });
    assert.equal(refused.status, 400, await refused.text());
    assert.equal((await reg(s, `${repo}/blobs/${wrong}`, { method: 'HEAD' })).status, 404);
    const done = await reg(s, `${path}?digest=${sha256(bytes)}`, { method: 'PUT' });
    assert.equal(done.status, 201, await done.text());

    const redirected = await reg(s, `${repo}/blobs/${sha256(bytes)}`);
    assert.equal(redirected.status, 307);
    const location = redirected.headers.get('location')!;
    assert.ok(location.startsWith(`${b.endpoint}/${b.bucket}/${prefix}/blobs/sha256/`), location);
    const direct = await fetch(location); // no Berth token: the URL is signed
    assert.equal(direct.status, 200);
    assert.equal(sha256(new Uint8Array(await direct.arrayBuffer())), sha256(bytes));
    const ranged = await fetch(location, { headers: { range: 'bytes=10-19' } });
    assert.deepEqual(Buffer.from(await ranged.arrayBuffer()), bytes.subarray(10, 20));
    assert.equal((await reg(s, `${repo}/blobs/${sha256(bytes)}`, { method: 'HEAD' })).status, 200, 'a HEAD is answered by Berth');
  });

  it('collects on S3 beside a serving instance: unreferenced blobs and stale uploads go, a tagged image stays', async () => {
    const s = berth!;
    const repo = `/v2/${s.orgName}/s3/app`;
    const started = await reg(s, `${repo}/blobs/uploads/`, { method: 'POST' });
    const path = new URL(started.headers.get('location')!, s.registryUrl).pathname;
    assert.equal((await reg(s, path, { method: 'PATCH', body: randomBytes(1000), headers: { 'content-type': 'application/octet-stream' } })).status, 202);
    assert.notDeepEqual(await keysUnder(b, `${prefix}/uploads/`), []);
    const before = await keysUnder(b, `${prefix}/blobs/`);
    const flags = ['--blob-store', `s3://${b.bucket}/${prefix}`, '--s3-endpoint', b.endpoint, '--s3-path-style', '--grace', '0s', '--upload-grace', '0s'];
    const report = await gc(s, ...flags);
    assert.equal(report.uploadsCancelled, 1);
    assert.equal(report.blobsDeleted, 1, 'the blob uploaded by hand, which no manifest lists');
    assert.deepEqual(await keysUnder(b, `${prefix}/uploads/`), []);
    const kept = await keysUnder(b, `${prefix}/blobs/`);
    assert.equal(kept.length, before.length - 1);
    const layer = image.images[0].layers[0].digest;
    assert.equal((await reg(s, `${repo}/blobs/${layer}`, { method: 'HEAD' })).status, 200, 'the tagged image keeps its blobs');
  });

  it('answers 503 with Retry-After when the object store cannot be reached, and loses no acknowledged bytes', async () => {
    const s = await start('http://127.0.0.1:9'); // nothing listens there
    const repo = `/v2/${s.orgName}/s3/app`;
    const pull = await reg(s, `${repo}/blobs/${image.images[0].layers[0].digest}`);
    assert.equal(pull.status, 503, await pull.text());
    assert.ok(Number(pull.headers.get('retry-after')) > 0);
    const started = await reg(s, `${repo}/blobs/uploads/`, { method: 'POST' });
    assert.equal(started.status, 202);
    const path = new URL(started.headers.get('location')!, s.registryUrl).pathname;
    const chunk = await reg(s, path, { method: 'PATCH', body: randomBytes(1000), headers: { 'content-type': 'application/octet-stream' } });
    assert.equal(chunk.status, 503, await chunk.text());
    assert.ok(Number(chunk.headers.get('retry-after')) > 0);
    const status = await reg(s, path);
    assert.equal(status.status, 204);
    assert.equal(status.headers.get('range'), '0-0', 'nothing was acknowledged, nothing counts');
    assert.doesNotMatch(await s.settledLogs(), /registry request failed/, 'no 500 was logged');
  });
});

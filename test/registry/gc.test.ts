// Registry garbage collection, black-box: a real server, content pushed over
// HTTP (raw requests, and skopeo where a real client's pull is the proof),
// and `berth registry gc` run as its own process on the same data directory
// and database. "Older than the grace" is made true honestly: either by
// ordering (push, then gc with --grace 0s) or by dating rows back in the
// database and files back on disk, never by waiting. Every test starts with a
// gc that clears what earlier tests left, so the counts are the test's own.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { beforeEach, describe, it } from 'node:test';
import { useBerth, type Berth } from '../harness/berth-process.js';
import { sqlQuery } from '../harness/database.js';
import { writeImage } from '../harness/oci-layout.js';
import { cliToken, registryHost } from '../harness/registry-client.js';
import { blobFile, blobFileExists, gc, imageManifest, RepoClient, sha256 } from '../harness/registry-gc.js';
import { creds, skopeo, skopeoMissing } from '../harness/skopeo.js';

const LONG_AGO = '2000-01-01T00:00:00.000Z';
const tmp = (p: string) => mkdtempSync(join(tmpdir(), `berth-gc-${p}-`));

/** A config blob's bytes (JSON, unique). */
const configBytes = () => Buffer.from(JSON.stringify({ architecture: 'amd64', os: 'linux', nonce: randomBytes(8).toString('hex') }));

/** Pushes config + layers and the manifest; returns the manifest digest and its blobs. */
async function pushImage(c: RepoClient, reference: string | undefined, layers: Buffer[], subject?: { digest: string; size: number }) {
  const config = configBytes();
  const cfg = { digest: await c.pushBlob(config), size: config.length };
  const ls = [];
  for (const l of layers) ls.push({ digest: await c.pushBlob(l), size: l.length });
  const body = imageManifest(cfg, ls, subject);
  const digest = await c.putManifest(reference, body);
  return { digest, body, size: Buffer.byteLength(JSON.stringify(body)), config: cfg.digest, layers: ls.map((l) => l.digest) };
}

describe('registry garbage collection', () => {
  let berth: Berth;

  useBerth((b) => {
    berth = b;
  });

  beforeEach(async () => {
    await gc(berth, '--grace', '0s', '--upload-grace', '0s', '--delete-untagged');
  });

  it('removes a blob nothing references, with its bytes, and keeps the blobs of a tagged image, which still pulls', { skip: skopeoMissing }, async () => {
    const token = cliToken(berth, registryHost(berth)).token;
    const layout = tmp('img');
    const image = await writeImage(layout, 'v1', { layers: [3000, 5000] });
    const ref = `docker://${registryHost(berth)}/${berth.orgName}/app:v1`;
    const pushed = await skopeo(['copy', '--preserve-digests', ...creds('dest', '_token', token), `oci:${layout}:v1`, ref]);
    assert.equal(pushed.code, 0, pushed.stderr);
    const c = await RepoClient.open(berth, 'app');
    const stray = await c.pushBlob(randomBytes(4000));
    assert.ok(blobFileExists(berth, stray));

    const report = await gc(berth, '--grace', '0s');
    assert.deepEqual(
      { ...report, reposScanned: 0 },
      {
        dryRun: false,
        manifestsDeleted: 0,
        linksRemoved: 1,
        blobsDeleted: 1,
        bytesFreed: 4000,
        uploadsCancelled: 0,
        reposScanned: 0,
        interrupted: false,
      },
    );
    assert.equal(blobFileExists(berth, stray), false, 'the bytes are gone');
    assert.equal(await c.blobStatus(stray), 404);
    for (const d of [image.config.digest, ...image.layers.map((l) => l.digest)]) {
      assert.ok(blobFileExists(berth, d), `${d} stays`);
      assert.equal(await c.blobStatus(d), 200);
    }
    const back = tmp('pull');
    const pulled = await skopeo(['copy', '--preserve-digests', ...creds('src', '_token', token), ref, `oci:${back}:v1`]);
    assert.equal(pulled.code, 0, pulled.stderr);
    for (const l of image.layers) {
      const hex = l.digest.split(':')[1];
      assert.deepEqual(readFileSync(join(back, 'blobs', 'sha256', hex)), readFileSync(join(layout, 'blobs', 'sha256', hex)));
    }
  });

  it('keeps a blob pushed within the grace; past it the link goes first, and the bytes once they too are older', async () => {
    const c = await RepoClient.open(berth, 'fresh');
    const bytes = randomBytes(1500);
    const digest = await c.pushBlob(bytes);

    const within = await gc(berth); // default grace: 1h
    assert.equal(within.linksRemoved, 0);
    assert.equal(within.blobsDeleted, 0);
    assert.equal(await c.blobStatus(digest), 200);

    // The link is old, but the bytes were committed just now: the link goes, the bytes wait for their own grace.
    await sqlQuery(berth, 'update repo_blobs set push_time = $1 where digest = $2', [LONG_AGO, digest]);
    const linkOld = await gc(berth);
    assert.equal(linkOld.linksRemoved, 1);
    assert.equal(linkOld.blobsDeleted, 0);
    assert.equal(await c.blobStatus(digest), 404);
    assert.ok(blobFileExists(berth, digest));

    const old = new Date('2000-01-01T00:00:00Z');
    utimesSync(blobFile(berth, digest), old, old);
    const bytesOld = await gc(berth);
    assert.equal(bytesOld.blobsDeleted, 1);
    assert.equal(bytesOld.bytesFreed, 1500);
    assert.equal(blobFileExists(berth, digest), false);
    assert.equal((await sqlQuery(berth, 'select digest from blobs where digest = $1', [digest])).length, 0);
  });

  it('keeps a blob and a manifest pushed again within the grace, though their first push was long ago', async () => {
    const c = await RepoClient.open(berth, 'again');
    const image = await pushImage(c, undefined, [randomBytes(700)]); // by digest: never tagged
    const strayBytes = randomBytes(900);
    const stray = await c.pushBlob(strayBytes);
    const dateBack = async () => {
      await sqlQuery(berth, "update repo_blobs set push_time = $1 where repo_uid = (select uid from repos where name = 'again')", [LONG_AGO]);
      await sqlQuery(berth, 'update manifests set push_time = $1 where digest = $2', [LONG_AGO, image.digest]);
    };

    await dateBack();
    assert.equal(await c.pushBlob(strayBytes), stray);
    assert.equal(await c.putManifest(image.digest, image.body), image.digest);
    const pushedAgain = await gc(berth, '--delete-untagged');
    assert.deepEqual([pushedAgain.manifestsDeleted, pushedAgain.linksRemoved, pushedAgain.blobsDeleted], [0, 0, 0]);
    assert.equal(await c.blobStatus(stray), 200);
    assert.equal(await c.manifestStatus(image.digest), 200);

    // Dated back with no new push, all of it is garbage (the bytes, committed minutes ago, wait for their own grace).
    await dateBack();
    const notAgain = await gc(berth, '--delete-untagged');
    assert.deepEqual([notAgain.manifestsDeleted, notAgain.linksRemoved, notAgain.blobsDeleted], [1, 3, 0]);
    assert.equal(await c.blobStatus(stray), 404);
    assert.equal(await c.manifestStatus(image.digest), 404);
  });

  it('cancels uploads older than the upload grace, keeps newer ones, and clears what a crash left in the blob store', async () => {
    const c = await RepoClient.open(berth, 'uploads');
    const stale = await c.openUpload();
    const young = await c.openUpload();
    const staleId = stale.split('/').pop() as string;
    await sqlQuery(berth, 'update uploads set create_time = $1 where id = $2', [LONG_AGO, staleId]);
    // A directory as a crash mid-commit leaves it: a start time, no data, no session row.
    const leftover = join(berth.dataDir, 'registry', 'uploads', randomBytes(16).toString('hex'));
    mkdirSync(leftover, { mode: 0o700 });
    writeFileSync(join(leftover, 'started'), LONG_AGO);

    const report = await gc(berth);
    assert.equal(report.uploadsCancelled, 2);
    assert.equal(await c.uploadStatus(stale), 404);
    assert.equal(await c.uploadStatus(young), 204);
    assert.equal(existsSync(join(berth.dataDir, 'registry', 'uploads', staleId)), false);
    assert.equal(existsSync(leftover), false);
  });

  it('keeps untagged manifests by default; --delete-untagged deletes them and the blobs only they used', async () => {
    const c = await RepoClient.open(berth, 'untagged');
    const shared = randomBytes(1000);
    const own = randomBytes(1100);
    const doomed = await pushImage(c, 'old', [shared, own]);
    const kept = await pushImage(c, 'current', [shared]);
    await c.deleteTag('old');

    const byDefault = await gc(berth, '--grace', '0s');
    assert.equal(byDefault.manifestsDeleted, 0);
    assert.equal(byDefault.linksRemoved, 0);
    assert.equal(byDefault.blobsDeleted, 0);
    assert.equal(await c.manifestStatus(doomed.digest), 200, 'an untagged manifest still pulls by digest');

    const untagged = await gc(berth, '--grace', '0s', '--delete-untagged');
    assert.equal(untagged.manifestsDeleted, 1);
    assert.equal(untagged.linksRemoved, 2, 'its config and its own layer');
    assert.equal(untagged.blobsDeleted, 2);
    assert.equal(untagged.bytesFreed, 1100 + configBytes().length);
    assert.equal(await c.manifestStatus(doomed.digest), 404);
    assert.equal(await c.blobStatus(doomed.layers[1]), 404);
    assert.equal(blobFileExists(berth, doomed.layers[1]), false);
    assert.equal(await c.blobStatus(doomed.layers[0]), 200, 'the layer a tagged image shares stays');
    assert.equal(await c.manifestStatus('current'), 200);
    assert.equal(await c.blobStatus(kept.config), 200);
  });

  it("keeps an index's untagged platform manifests while the index is tagged, and all of them once it is not", async () => {
    const c = await RepoClient.open(berth, 'multi');
    const amd = await pushImage(c, undefined, [randomBytes(500)]);
    const arm = await pushImage(c, undefined, [randomBytes(600)]);
    const index = {
      schemaVersion: 2,
      mediaType: 'application/vnd.oci.image.index.v1+json',
      manifests: [
        { mediaType: 'application/vnd.oci.image.manifest.v1+json', digest: amd.digest, size: amd.size, platform: { os: 'linux', architecture: 'amd64' } },
        { mediaType: 'application/vnd.oci.image.manifest.v1+json', digest: arm.digest, size: arm.size, platform: { os: 'linux', architecture: 'arm64' } },
      ],
    };
    const indexDigest = await c.putManifest('1.0', index);

    const dry = await gc(berth, '--grace', '0s', '--delete-untagged', '--dry-run');
    const tagged = await gc(berth, '--grace', '0s', '--delete-untagged');
    assert.deepEqual({ ...dry, dryRun: false }, tagged);
    assert.equal(tagged.manifestsDeleted, 0);
    assert.equal(tagged.blobsDeleted, 0);
    for (const d of [indexDigest, amd.digest, arm.digest]) assert.equal(await c.manifestStatus(d), 200);

    await c.deleteTag('1.0');
    const untagged = await gc(berth, '--grace', '0s', '--delete-untagged');
    assert.equal(untagged.manifestsDeleted, 3);
    assert.equal(untagged.blobsDeleted, 4);
    for (const d of [indexDigest, amd.digest, arm.digest]) assert.equal(await c.manifestStatus(d), 404);
  });

  it('keeps the referrers of a live image and deletes those of a deleted image or of nothing', async () => {
    const c = await RepoClient.open(berth, 'signed');
    const live = await pushImage(c, 'live', [randomBytes(400)]);
    const gone = await pushImage(c, 'gone', [randomBytes(410)]);
    const sigLive = await pushImage(c, undefined, [randomBytes(50)], { digest: live.digest, size: live.size });
    const sigGone = await pushImage(c, undefined, [randomBytes(51)], { digest: gone.digest, size: gone.size });
    const sigNothing = await pushImage(c, undefined, [randomBytes(52)], { digest: sha256(randomBytes(8)), size: 10 });
    await c.deleteTag('gone');

    // The dry run reports the mark alone; the run re-checks each deletion: both must agree.
    const dry = await gc(berth, '--grace', '0s', '--delete-untagged', '--dry-run');
    const report = await gc(berth, '--grace', '0s', '--delete-untagged');
    assert.deepEqual({ ...dry, dryRun: false }, report);
    assert.equal(report.manifestsDeleted, 3, 'the untagged image and the two referrers of no live image');
    assert.equal(await c.manifestStatus(sigLive.digest), 200);
    assert.equal(await c.blobStatus(sigLive.layers[0]), 200);
    const referrers = await c.send('GET', `/v2/${c.name}/referrers/${live.digest}`);
    assert.deepEqual(
      JSON.parse(referrers.text).manifests.map((m: { digest: string }) => m.digest),
      [sigLive.digest],
    );
    for (const d of [gone.digest, sigGone.digest, sigNothing.digest]) assert.equal(await c.manifestStatus(d), 404);
    for (const d of [...sigGone.layers, ...sigNothing.layers, ...gone.layers]) assert.equal(blobFileExists(berth, d), false);
  });

  it('--dry-run changes nothing and reports what the run then does', async () => {
    const c = await RepoClient.open(berth, 'dry');
    const shared = randomBytes(800);
    const untagged = await pushImage(c, 'x', [shared, randomBytes(810)]);
    await pushImage(c, 'y', [shared]);
    await c.deleteTag('x');
    const stray = await c.pushBlob(randomBytes(820));
    const upload = await c.openUpload();
    // Bytes with no blob row, as a crash between commit and link leaves them.
    const orphan = randomBytes(830);
    const orphanDigest = sha256(orphan);
    mkdirSync(dirname(blobFile(berth, orphanDigest)), { recursive: true });
    writeFileSync(blobFile(berth, orphanDigest), orphan);
    const old = new Date('2000-01-01T00:00:00Z');
    utimesSync(blobFile(berth, orphanDigest), old, old);

    const flags = ['--grace', '0s', '--upload-grace', '0s', '--delete-untagged'];
    const dry = await gc(berth, ...flags, '--dry-run');
    assert.equal(dry.dryRun, true);
    assert.equal(await c.manifestStatus(untagged.digest), 200);
    assert.equal(await c.blobStatus(stray), 200);
    assert.equal(await c.blobStatus(untagged.layers[1]), 200);
    assert.equal(await c.uploadStatus(upload), 204);
    assert.ok(blobFileExists(berth, orphanDigest));

    const real = await gc(berth, ...flags);
    assert.deepEqual({ ...dry, dryRun: false }, real);
    assert.deepEqual(
      [real.manifestsDeleted, real.linksRemoved, real.blobsDeleted, real.uploadsCancelled],
      [1, 3, 4, 1],
      'the manifest; its config, own layer and the stray blob; those three and the orphan; the upload',
    );
    assert.equal(real.bytesFreed, 810 + 820 + 830 + configBytes().length);
    assert.equal(await c.manifestStatus(untagged.digest), 404);
    assert.equal(await c.uploadStatus(upload), 404);
    assert.equal(blobFileExists(berth, orphanDigest), false);
    assert.equal(await c.blobStatus(untagged.layers[0]), 200);
  });
});

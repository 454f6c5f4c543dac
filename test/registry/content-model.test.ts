// The registry's content model against a real database (SQLite, or
// PostgreSQL with BERTH_TEST_PG): pushing, reading and deleting manifests,
// refusals for missing or mis-sized content, referrers, the tag writer and
// its history, the platform queries, upload sessions and what goes with a repo.
// Over 400 lines: the cases share one opened database, as the store-level
// suite of one model; the pure parser's cases live in manifest-parsing.test.ts.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { newChildUid, newRootUid } from '../../src/core/uidp.js';
import { linkBlob, repoBlobSize, repoHasBlob, unlinkBlob } from '../../src/registry/content/blob-links.js';
import { deleteManifest } from '../../src/registry/content/delete-manifest.js';
import { digestOf } from '../../src/registry/content/digest.js';
import { getManifest, statManifest } from '../../src/registry/content/get-manifest.js';
import { imageArchitectures, imagePlatforms, imageSize } from '../../src/registry/content/image-platforms.js';
import { parseManifest, type ParsedManifest } from '../../src/registry/content/manifest.js';
import { OCI_CONFIG, OCI_EMPTY, OCI_INDEX, OCI_LAYER_GZIP, OCI_MANIFEST } from '../../src/registry/content/media-types.js';
import { putManifest } from '../../src/registry/content/put-manifest.js';
import { listReferrers } from '../../src/registry/content/referrers.js';
import { resolveReference } from '../../src/registry/content/resolve-reference.js';
import { findUpload, forgetUpload, recordUpload, staleUploads } from '../../src/registry/content/upload-sessions.js';
import { listTagNames } from '../../src/registry/tags/list-tag-names.js';
import { historyOf } from '../../src/registry/tags/tag-history.js';
import { removeTag, setTag } from '../../src/registry/tags/tag-writer.js';
import { isForeignKeyViolation } from '../../src/store/constraint-error.js';
import { openStore, type Store } from '../../src/store/store.js';
import { transact, type Tx } from '../../src/store/transact.js';
import { dropDatabase, freshDatabase } from '../harness/berth-process.js';
import { putImage, putIndex } from '../harness/registry-content.js';

const T0 = '2024-01-01T00:00:00.000Z';
const at = (minutes: number) => new Date(Date.parse(T0) + minutes * 60_000).toISOString();
const encode = (body: unknown) => new TextEncoder().encode(JSON.stringify(body));

function parsed(bytes: Uint8Array): ParsedManifest {
  const r = parseManifest(bytes, undefined);
  if (!r.ok) assert.fail(r.failure.message);
  return r.manifest;
}

function freshBlob(size: number) {
  return { digest: digestOf(randomBytes(16)), size };
}

describe('registry content model', () => {
  let store: Store;
  let dataDir: string;
  let databaseUrl: string | undefined;
  let group: string;
  const tx = <T>(work: (tx: Tx) => Promise<T>) => transact(store, work);

  async function newRepo(): Promise<string> {
    const uid = newChildUid(group);
    await tx((t) =>
      t
        .insertInto('repos')
        .values({ uid, parent_uid: group, name: `r${uid.slice(-16)}`, description: '', readme: '', create_time: T0, update_time: T0 })
        .execute(),
    );
    return uid;
  }

  before(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'berth-content-'));
    databaseUrl = await freshDatabase();
    store = await openStore({ dataDir, databaseUrl });
    group = newRootUid();
    await tx((t) =>
      t
        .insertInto('groups')
        .values({ uid: group, parent_uid: null, name: 'content.test', description: '', verified: 0, create_time: T0, update_time: T0 })
        .execute(),
    );
  });
  after(async () => {
    await store.close();
    await dropDatabase(databaseUrl);
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('links blobs to a repo, once, with one size per digest', async () => {
    const repo = await newRepo();
    const other = await newRepo();
    const b = freshBlob(42);
    assert.equal(await tx((t) => linkBlob(t, repo, b.digest, b.size)), true);
    assert.equal(await tx((t) => linkBlob(t, repo, b.digest, b.size)), false);
    assert.equal(await repoHasBlob(store.db, repo, b.digest), true);
    assert.equal(await repoHasBlob(store.db, other, b.digest), false, 'a link is per repo');
    assert.equal(await repoBlobSize(store.db, repo, b.digest), 42);
    await assert.rejects(
      tx((t) => linkBlob(t, other, b.digest, 43)),
      /is recorded with size 42, not 43/,
    );
    assert.equal(await repoHasBlob(store.db, other, b.digest), false, 'the refused link rolled back');
    assert.deepEqual(await tx((t) => unlinkBlob(t, repo, b.digest)), { unlinked: true });
    assert.deepEqual(await tx((t) => unlinkBlob(t, repo, b.digest)), { unlinked: false });
    assert.equal(await repoHasBlob(store.db, repo, b.digest), false);
  });

  it('refuses a manifest whose blobs the repo does not hold, writing nothing, then stores it once they are linked', async () => {
    const repo = await newRepo();
    const other = await newRepo();
    const config = freshBlob(10);
    const layers = [freshBlob(20), freshBlob(30)];
    const bytes = encode({
      schemaVersion: 2,
      mediaType: OCI_MANIFEST,
      config: { mediaType: OCI_CONFIG, ...config },
      layers: layers.map((l) => ({ mediaType: OCI_LAYER_GZIP, ...l })),
    });
    const digest = digestOf(bytes);
    await tx((t) => linkBlob(t, repo, config.digest, config.size));
    await tx((t) => linkBlob(t, other, layers[1].digest, layers[1].size)); // in another repo: does not count
    const refused = await tx((t) => putManifest(t, repo, digest, parsed(bytes), bytes));
    assert.deepEqual(refused, {
      ok: false,
      failure: {
        code: 'MANIFEST_BLOB_UNKNOWN',
        message: 'the repo does not hold every blob and manifest this manifest lists',
        digests: [layers[0].digest, layers[1].digest],
      },
    });
    assert.equal(await statManifest(store.db, repo, digest), undefined);

    for (const l of layers) await tx((t) => linkBlob(t, repo, l.digest, l.size));
    assert.deepEqual(await tx((t) => putManifest(t, repo, digest, parsed(bytes), bytes, { now: T0 })), { ok: true, created: true });
    assert.deepEqual(await tx((t) => putManifest(t, repo, digest, parsed(bytes), bytes)), { ok: true, created: false });
    const got = await getManifest(store.db, repo, digest);
    assert.ok(got);
    assert.deepEqual(Buffer.from(got.content), Buffer.from(bytes), 'the exact bytes come back');
    assert.deepEqual(
      { ...got, content: undefined },
      { digest, mediaType: OCI_MANIFEST, size: bytes.byteLength, artifactType: OCI_CONFIG, createTime: T0, content: undefined },
    );
    assert.deepEqual(await statManifest(store.db, repo, digest), {
      digest,
      mediaType: OCI_MANIFEST,
      size: bytes.byteLength,
      artifactType: OCI_CONFIG,
      createTime: T0,
    });
    assert.equal(await statManifest(store.db, other, digest), undefined);
  });

  it('refuses a descriptor whose size differs from the stored blob', async () => {
    const repo = await newRepo();
    const config = freshBlob(10);
    await tx((t) => linkBlob(t, repo, config.digest, config.size));
    const bytes = encode({ schemaVersion: 2, mediaType: OCI_MANIFEST, config: { mediaType: OCI_CONFIG, digest: config.digest, size: 11 }, layers: [] });
    const r = await tx((t) => putManifest(t, repo, digestOf(bytes), parsed(bytes), bytes));
    assert.equal(r.ok, false);
    assert.equal(!r.ok && r.failure.code, 'SIZE_INVALID');
    assert.deepEqual(!r.ok && r.failure.digests, [config.digest]);
  });

  it('refuses bytes that do not hash to the digest given', async () => {
    const repo = await newRepo();
    const bytes = encode({ schemaVersion: 2, mediaType: OCI_INDEX, manifests: [] });
    await assert.rejects(
      tx((t) => putManifest(t, repo, `sha256:${'0'.repeat(64)}`, parsed(bytes), bytes)),
      TypeError,
    );
    const sha512 = digestOf(bytes, 'sha512');
    assert.deepEqual(await tx((t) => putManifest(t, repo, sha512, parsed(bytes), bytes)), { ok: true, created: true });
    assert.equal((await statManifest(store.db, repo, sha512))?.digest, sha512);
  });

  it('refuses an index until the repo holds its child manifests', async () => {
    const repo = await newRepo();
    const other = await newRepo();
    const inOther = await tx((t) => putImage(t, other));
    const bytes = encode({
      schemaVersion: 2,
      mediaType: OCI_INDEX,
      manifests: [{ mediaType: OCI_MANIFEST, digest: inOther.digest, size: inOther.bytes.byteLength, platform: { os: 'linux', architecture: 'amd64' } }],
    });
    const r = await tx((t) => putManifest(t, repo, digestOf(bytes), parsed(bytes), bytes));
    assert.equal(!r.ok && r.failure.code, 'MANIFEST_BLOB_UNKNOWN');
    assert.deepEqual(!r.ok && r.failure.digests, [inOther.digest]);
    // The same image pushed into this repo: same manifest bytes, so the same digest.
    for (const b of parsed(inOther.bytes).blobs) await tx((t) => linkBlob(t, repo, b.digest, b.size));
    assert.equal((await tx((t) => putManifest(t, repo, inOther.digest, parsed(inOther.bytes), inOther.bytes))).ok, true);
    assert.deepEqual(await tx((t) => putManifest(t, repo, digestOf(bytes), parsed(bytes), bytes)), { ok: true, created: true });
  });

  it('resolves tags and digests to manifests the repo holds', async () => {
    const repo = await newRepo();
    const img = await tx((t) => putImage(t, repo));
    await tx((t) => setTag(t, repo, 'v1', img.digest));
    await tx((t) => setTag(t, repo, 'dangling', `sha256:${'d'.repeat(64)}`)); // as the API allowed before manifests existed
    assert.equal(await resolveReference(store.db, repo, 'v1'), img.digest);
    assert.equal(await resolveReference(store.db, repo, img.digest), img.digest);
    assert.equal(await resolveReference(store.db, repo, 'dangling'), undefined);
    assert.equal(await resolveReference(store.db, repo, 'nope'), undefined);
    assert.equal(await resolveReference(store.db, repo, `sha256:${'e'.repeat(64)}`), undefined);
    assert.equal(await resolveReference(store.db, await newRepo(), img.digest), undefined);
  });

  it('deletes a manifest with its references and tags, recording each removal in the tag history', async () => {
    const repo = await newRepo();
    const img = await tx((t) => putImage(t, repo, { layers: [1, 2] }));
    const keep = await tx((t) => putImage(t, repo));
    await tx((t) => setTag(t, repo, 'a', img.digest, at(1)));
    await tx((t) => setTag(t, repo, 'b', img.digest, at(1)));
    await tx((t) => setTag(t, repo, 'c', keep.digest, at(1)));
    assert.deepEqual(await tx((t) => deleteManifest(t, repo, img.digest, at(2))), { deleted: true, untagged: ['a', 'b'] });
    assert.equal(await getManifest(store.db, repo, img.digest), undefined);
    const refs = await store.db.selectFrom('manifest_refs').select('position').where('repo_uid', '=', repo).where('manifest_digest', '=', img.digest).execute();
    assert.deepEqual(refs, []);
    assert.deepEqual(await listTagNames(store.db, repo), { names: ['c'], more: false });
    assert.deepEqual(await historyOf(store.db, repo, 'a', { includeRemovals: true }), [
      { digest: img.digest, updateTime: at(1) },
      { digest: '', updateTime: at(2) },
    ]);
    assert.deepEqual(await historyOf(store.db, repo, 'a'), [{ digest: img.digest, updateTime: at(1) }]);
    for (const b of parsed(img.bytes).blobs) assert.equal(await repoHasBlob(store.db, repo, b.digest), true, 'blobs stay linked for gc');
    assert.deepEqual(await tx((t) => deleteManifest(t, repo, img.digest)), { deleted: false, untagged: [] });
  });

  it('lists referrers by subject, reporting the artifactType the spec asks for, filtered on request', async () => {
    const repo = await newRepo();
    const subject = `sha256:${'5'.repeat(64)}`; // need not exist
    const empty = freshBlob(2);
    await tx((t) => linkBlob(t, repo, empty.digest, empty.size));
    const push = async (body: Record<string, unknown>, minute: number) => {
      const bytes = encode({ schemaVersion: 2, subject: { mediaType: OCI_MANIFEST, digest: subject, size: 1 }, ...body });
      const r = await tx((t) => putManifest(t, repo, digestOf(bytes), parsed(bytes), bytes, { now: at(minute) }));
      assert.equal(r.ok, true);
      return { digest: digestOf(bytes), size: bytes.byteLength };
    };
    const artifact = (artifactType: string, annotations?: Record<string, string>) => ({
      mediaType: OCI_MANIFEST,
      artifactType,
      config: { mediaType: OCI_EMPTY, ...empty },
      layers: [],
      annotations,
    });
    const sbom = await push(artifact('application/vnd.example.sbom.v1', { 'org.example': 'one' }), 1);
    const sig = await push(artifact('application/vnd.example.sig.v1'), 2);
    const plain = await push({ mediaType: OCI_MANIFEST, config: { mediaType: 'application/vnd.example.config.v1+json', ...empty }, layers: [] }, 3);
    const index = await push({ mediaType: OCI_INDEX, manifests: [] }, 4);
    await tx((t) => putImage(t, repo)); // no subject: not a referrer

    assert.deepEqual(await listReferrers(store.db, repo, subject), [
      { mediaType: OCI_MANIFEST, ...sbom, artifactType: 'application/vnd.example.sbom.v1', annotations: { 'org.example': 'one' } },
      { mediaType: OCI_MANIFEST, ...sig, artifactType: 'application/vnd.example.sig.v1' },
      { mediaType: OCI_MANIFEST, ...plain, artifactType: 'application/vnd.example.config.v1+json' },
      { mediaType: OCI_INDEX, ...index },
    ]);
    assert.deepEqual(
      (await listReferrers(store.db, repo, subject, { artifactType: 'application/vnd.example.sig.v1' })).map((r) => r.digest),
      [sig.digest],
    );
    assert.deepEqual(await listReferrers(store.db, repo, subject, { artifactType: 'application/vnd.example.none' }), []);
    assert.deepEqual(await listReferrers(store.db, await newRepo(), subject), [], 'referrers are per repo');
    assert.equal((await listReferrers(store.db, repo, subject, { limit: 2 })).length, 2);
  });

  it('writes tag history only when the digest changes, removals included', async () => {
    const repo = await newRepo();
    const [x, y] = [await tx((t) => putImage(t, repo)), await tx((t) => putImage(t, repo))];
    const first = await tx((t) => setTag(t, repo, 'latest', x.digest, at(1)));
    assert.equal(first.deprecated, 0);
    const same = await tx((t) => setTag(t, repo, 'latest', x.digest, at(2), { deprecated: true }));
    assert.equal(same.uid, first.uid);
    assert.equal(same.deprecated, 1);
    assert.equal(same.update_time, at(2));
    const moved = await tx((t) => setTag(t, repo, 'latest', y.digest, at(3)));
    assert.equal(moved.deprecated, 1, 'a move without the flag keeps it');
    assert.equal((await tx((t) => removeTag(t, repo, 'latest', at(4))))?.digest, y.digest);
    assert.equal(await tx((t) => removeTag(t, repo, 'latest', at(5))), undefined);
    await tx((t) => setTag(t, repo, 'latest', y.digest, at(6)));
    assert.deepEqual(await historyOf(store.db, repo, 'latest', { includeRemovals: true }), [
      { digest: x.digest, updateTime: at(1) },
      { digest: y.digest, updateTime: at(3) },
      { digest: '', updateTime: at(4) },
      { digest: y.digest, updateTime: at(6) },
    ]);
    assert.deepEqual(await historyOf(store.db, await newRepo(), 'latest'), []);
  });

  it('filters history by start (inclusive) and end (exclusive) and returns at most 1000 records, oldest first', async () => {
    const repo = await newRepo();
    const [x, y] = [await tx((t) => putImage(t, repo)), await tx((t) => putImage(t, repo))];
    await tx(async (t) => {
      for (let i = 0; i < 1005; i++) await setTag(t, repo, 'busy', i % 2 === 0 ? x.digest : y.digest, at(i));
    });
    const all = await historyOf(store.db, repo, 'busy');
    assert.equal(all.length, 1000);
    assert.equal(all[0].updateTime, at(0));
    assert.equal(all[999].updateTime, at(999));
    const rest = await historyOf(store.db, repo, 'busy', { start: new Date(at(1000)) });
    assert.deepEqual(
      rest.map((h) => h.updateTime),
      [at(1000), at(1001), at(1002), at(1003), at(1004)],
    );
    const window = await historyOf(store.db, repo, 'busy', { start: new Date(at(10)), end: new Date(at(13)) });
    assert.deepEqual(window, [
      { digest: x.digest, updateTime: at(10) },
      { digest: y.digest, updateTime: at(11) },
      { digest: x.digest, updateTime: at(12) },
    ]);
    assert.equal((await historyOf(store.db, repo, 'busy', { limit: 5000 })).length, 1000);
    assert.equal((await historyOf(store.db, repo, 'busy', { limit: 3 })).length, 3);
    await assert.rejects(historyOf(store.db, repo, 'busy', { start: new Date('nope') }), RangeError);
  });

  it('lists tag names in byte order, n at a time after last', async () => {
    const repo = await newRepo();
    const img = await tx((t) => putImage(t, repo));
    for (const name of ['b', 'a', 'B', 'a-1', 'sha256-abc']) await tx((t) => setTag(t, repo, name, img.digest));
    assert.deepEqual(await listTagNames(store.db, repo), { names: ['B', 'a', 'a-1', 'b', 'sha256-abc'], more: false });
    assert.deepEqual(await listTagNames(store.db, repo, 2), { names: ['B', 'a'], more: true });
    assert.deepEqual(await listTagNames(store.db, repo, 2, 'a'), { names: ['a-1', 'b'], more: true });
    assert.deepEqual(await listTagNames(store.db, repo, 2, 'b'), { names: ['sha256-abc'], more: false });
    assert.deepEqual(await listTagNames(store.db, repo, 0), { names: [], more: false });
  });

  it('answers architectures and sizes of images and indexes from the database', async () => {
    const repo = await newRepo();
    const amd = await tx((t) => putImage(t, repo, { architecture: 'amd64', layers: [1000, 2000] }));
    const arm = await tx((t) => putImage(t, repo, { architecture: 'arm64', layers: [500] }));
    const attestation = await tx((t) => putImage(t, repo, { architecture: 'unknown', os: 'unknown' }));
    assert.deepEqual(await imageArchitectures(store.db, repo, amd.digest), ['amd64']);
    assert.equal(await imageSize(store.db, repo, amd.digest, 'amd64'), 200 + 1000 + 2000);
    assert.equal(amd.size, 3200);
    assert.equal(await imageSize(store.db, repo, amd.digest, 'arm64'), undefined);

    const index = await tx((t) =>
      putIndex(t, repo, [
        { image: amd, architecture: 'amd64' },
        { image: arm, architecture: 'arm64' },
        { image: attestation, architecture: 'unknown', os: 'unknown' },
        { image: amd, architecture: 'amd64', os: 'windows' },
      ]),
    );
    assert.deepEqual(await imageArchitectures(store.db, repo, index.digest), ['amd64', 'arm64']);
    assert.equal(await imageSize(store.db, repo, index.digest, 'arm64'), arm.size);
    assert.equal(await imageSize(store.db, repo, index.digest, 'amd64'), amd.size);
    assert.equal(await imageSize(store.db, repo, index.digest, 's390x'), undefined);
    assert.equal(await imageSize(store.db, repo, index.digest, 'unknown'), undefined);
    assert.equal(await imageArchitectures(store.db, repo, `sha256:${'f'.repeat(64)}`), undefined);
    assert.equal(await imagePlatforms(store.db, repo, `sha256:${'f'.repeat(64)}`), undefined);
    // Every image entry but the attestation, in index order, with the entry's platform and the child's digest and size.
    assert.deepEqual(await imagePlatforms(store.db, repo, index.digest), [
      { os: 'linux', architecture: 'amd64', variant: '', digest: amd.digest, size: amd.size },
      { os: 'linux', architecture: 'arm64', variant: '', digest: arm.digest, size: arm.size },
      { os: 'windows', architecture: 'amd64', variant: '', digest: amd.digest, size: amd.size },
    ]);
    assert.deepEqual(await imagePlatforms(store.db, repo, arm.digest), [
      { os: 'linux', architecture: 'arm64', variant: '', digest: arm.digest, size: arm.size },
    ]);

    // An entry without a platform stands for its child's; an image of unknown platform offers none but answers any.
    const bare = await tx((t) => putImage(t, repo, { architecture: 'ppc64le' }));
    const unknown = freshBlob(7);
    await tx((t) => linkBlob(t, repo, unknown.digest, unknown.size));
    const noPlatformBytes = encode({ schemaVersion: 2, mediaType: OCI_MANIFEST, config: { mediaType: OCI_CONFIG, ...unknown }, layers: [] });
    const noPlatform = digestOf(noPlatformBytes);
    await tx((t) => putManifest(t, repo, noPlatform, parsed(noPlatformBytes), noPlatformBytes));
    assert.deepEqual(await imageArchitectures(store.db, repo, noPlatform), []);
    assert.equal(await imageSize(store.db, repo, noPlatform, 'riscv64'), 7);
    assert.deepEqual(await imagePlatforms(store.db, repo, noPlatform), [{ os: '', architecture: '', variant: '', digest: noPlatform, size: 7 }]);
    // A later put that knows the platform fills it in.
    await tx((t) => putManifest(t, repo, noPlatform, parsed(noPlatformBytes), noPlatformBytes, { platform: { os: 'linux', architecture: 'riscv64' } }));
    assert.deepEqual(await imageArchitectures(store.db, repo, noPlatform), ['riscv64']);
    const mixedBytes = encode({
      schemaVersion: 2,
      mediaType: OCI_INDEX,
      manifests: [{ mediaType: OCI_MANIFEST, digest: bare.digest, size: bare.bytes.byteLength }],
    });
    await tx((t) => putManifest(t, repo, digestOf(mixedBytes), parsed(mixedBytes), mixedBytes));
    assert.deepEqual(await imageArchitectures(store.db, repo, digestOf(mixedBytes)), ['ppc64le']);
    assert.equal(await imageSize(store.db, repo, digestOf(mixedBytes), 'ppc64le'), bare.size);
    assert.deepEqual(await imagePlatforms(store.db, repo, digestOf(mixedBytes)), [
      { os: 'linux', architecture: 'ppc64le', variant: '', digest: bare.digest, size: bare.size },
    ]);
  });

  it('records which repo an upload session belongs to', async () => {
    const repo = await newRepo();
    await tx((t) => recordUpload(t, 'up-1', repo, at(0)));
    await tx((t) => recordUpload(t, 'up-2', repo, at(10)));
    assert.deepEqual(await findUpload(store.db, 'up-1'), { id: 'up-1', repoUid: repo, createTime: at(0) });
    assert.equal(await findUpload(store.db, '../etc'), undefined);
    await assert.rejects(
      tx((t) => recordUpload(t, 'bad id', repo)),
      TypeError,
    );
    assert.deepEqual(
      (await staleUploads(store.db, new Date(at(5)))).filter((u) => u.repoUid === repo).map((u) => u.id),
      ['up-1'],
    );
    assert.equal(await tx((t) => forgetUpload(t, 'up-1')), true);
    assert.equal(await tx((t) => forgetUpload(t, 'up-1')), false);
    assert.equal(await findUpload(store.db, 'up-1'), undefined);
  });

  it('deletes everything of a repo with it, but keeps blobs for gc, which cannot remove a linked one', async () => {
    const repo = await newRepo();
    const neighbour = await newRepo();
    const img = await tx((t) => putImage(t, repo));
    const index = await tx((t) => putIndex(t, repo, [{ image: img, architecture: 'amd64' }]));
    await tx((t) => setTag(t, repo, 'latest', index.digest));
    await tx((t) => recordUpload(t, `up-${randomBytes(4).toString('hex')}`, repo));
    const shared = parsed(img.bytes).blobs[0];
    await tx((t) => linkBlob(t, neighbour, shared.digest, shared.size));

    await assert.rejects(
      tx((t) => t.deleteFrom('blobs').where('digest', '=', shared.digest).execute()),
      (err) => isForeignKeyViolation(err),
    );
    await tx((t) => t.deleteFrom('repos').where('uid', '=', repo).execute());
    for (const table of ['manifests', 'manifest_refs', 'repo_blobs', 'uploads', 'tag_history'] as const) {
      const left = await store.db.selectFrom(table).select('repo_uid').where('repo_uid', '=', repo).execute();
      assert.deepEqual(left, [], `${table} of the repo`);
    }
    assert.deepEqual(await store.db.selectFrom('tags').select('uid').where('parent_uid', '=', repo).execute(), []);
    const blobs = await store.db.selectFrom('blobs').select('digest').where('digest', '=', shared.digest).execute();
    assert.equal(blobs.length, 1, 'the blob row stays for gc');
    assert.equal(await repoHasBlob(store.db, neighbour, shared.digest), true);
    await tx((t) => unlinkBlob(t, neighbour, shared.digest));
    await tx((t) => t.deleteFrom('blobs').where('digest', '=', shared.digest).execute());
    assert.equal(await repoBlobSize(store.db, neighbour, shared.digest), undefined);
  });
});

// gc's sweeps against a real database (SQLite, or PostgreSQL with
// BERTH_TEST_PG) and a filesystem blob store, with the interleavings a live
// server produces made to happen in a fixed order: content that gains a
// reference between gc's mark and its sweep is kept, and a push that waits
// on gc's lock sees what gc removed and is refused rather than stored broken.
// The black-box tests (gc.test.ts, gc-concurrency.test.ts) cover the command.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync, utimesSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { after, before, describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { newChildUid, newRootUid } from '../../src/core/uidp.js';
import { FsBlobStore } from '../../src/registry/blobs/fs-blob-store.js';
import { BlobCollectedError } from '../../src/registry/blobs/blob-store.js';
import { linkBlob, linkCommittedBlob, repoHasBlob } from '../../src/registry/content/blob-links.js';
import { digestOf, parseDigest, type Digest } from '../../src/registry/content/digest.js';
import { parseManifest } from '../../src/registry/content/manifest.js';
import { OCI_CONFIG, OCI_LAYER_GZIP, OCI_MANIFEST } from '../../src/registry/content/media-types.js';
import { putManifest } from '../../src/registry/content/put-manifest.js';
import { lockRepoContent } from '../../src/registry/content/repo-content-lock.js';
import { collectBlob } from '../../src/registry/gc/collect-blob.js';
import { markRepo } from '../../src/registry/gc/mark-repo.js';
import { sweepLinkBatch } from '../../src/registry/gc/sweep-links.js';
import { sweepManifestBatch } from '../../src/registry/gc/sweep-manifests.js';
import { removeTag, setTag } from '../../src/registry/tags/tag-writer.js';
import { capabilitiesOf } from '../../src/store/db-capabilities.js';
import { openStore, type Store } from '../../src/store/store.js';
import { transact, type Tx } from '../../src/store/transact.js';
import { dropDatabase, freshDatabase } from '../harness/berth-process.js';
import { putImage } from '../harness/registry-content.js';

const T0 = '2024-01-01T00:00:00.000Z';
/** A cutoff after everything: all content counts as older than the grace. */
const FUTURE = '9999-01-01T00:00:00.000Z';

describe('gc sweeps against concurrent writers', () => {
  let store: Store;
  let blobs: FsBlobStore;
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

  /** Bytes committed in the blob store; their digest. */
  async function storeBytes(bytes: Buffer): Promise<Digest> {
    const upload = await blobs.createUpload();
    await blobs.append(upload.id, 0, Readable.from([bytes]));
    const digest = parseDigest(digestOf(bytes)) as Digest;
    await blobs.commit(upload.id, digest);
    return digest;
  }

  /** An image manifest over blobs already linked to the repo, stored by digest (untagged). */
  async function manifestOver(repo: string, config: { digest: string; size: number }, layers: { digest: string; size: number }[]) {
    const body = {
      schemaVersion: 2,
      mediaType: OCI_MANIFEST,
      config: { mediaType: OCI_CONFIG, ...config },
      layers: layers.map((l) => ({ mediaType: OCI_LAYER_GZIP, ...l })),
    };
    const bytes = new TextEncoder().encode(JSON.stringify(body));
    const p = parseManifest(bytes, OCI_MANIFEST);
    if (!p.ok) assert.fail(p.failure.message);
    const digest = digestOf(bytes);
    return { digest, put: (t: Tx) => putManifest(t, repo, digest, p.manifest, bytes) };
  }

  const present = async (repo: string, digest: string) =>
    (await store.db.selectFrom('manifests').select('digest').where('repo_uid', '=', repo).where('digest', '=', digest).executeTakeFirst()) !== undefined;

  before(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'berth-gc-sweep-'));
    databaseUrl = await freshDatabase();
    store = await openStore({ dataDir, databaseUrl });
    blobs = await FsBlobStore.open(join(dataDir, 'registry'));
    group = newRootUid();
    await tx((t) =>
      t
        .insertInto('groups')
        .values({ uid: group, parent_uid: null, name: 'gc.test', description: '', verified: 0, create_time: T0, update_time: T0 })
        .execute(),
    );
  });
  after(async () => {
    await store.close();
    await dropDatabase(databaseUrl);
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('keeps a manifest the mark found unreferenced when a tag reaches it before the sweep', async () => {
    const repo = await newRepo();
    const image = await tx((t) => putImage(t, repo));
    const plan = await markRepo(store.db, repo, FUTURE, true);
    assert.deepEqual(plan.manifests, [image.digest]);
    await tx((t) => setTag(t, repo, 'late', image.digest));
    assert.equal(await sweepManifestBatch(store, repo, plan.manifests, FUTURE), 0);
    assert.ok(await present(repo, image.digest));
    await tx((t) => removeTag(t, repo, 'late'));
    assert.equal(await sweepManifestBatch(store, repo, plan.manifests, FUTURE), 1);
    assert.equal(await present(repo, image.digest), false);
  });

  it('keeps a manifest that an index pushed after the mark lists, and a referrer whose subject was tagged after it', async () => {
    const repo = await newRepo();
    const child = await tx((t) => putImage(t, repo));
    const subject = await tx((t) => putImage(t, repo));
    const config = { digest: digestOf(randomBytes(8)), size: 2 };
    await tx((t) => linkBlob(t, repo, config.digest, config.size));
    const bytes = new TextEncoder().encode(
      JSON.stringify({
        schemaVersion: 2,
        mediaType: OCI_MANIFEST,
        artifactType: 'application/vnd.example.sig',
        config: { mediaType: 'application/vnd.oci.empty.v1+json', ...config },
        layers: [],
        subject: { mediaType: OCI_MANIFEST, digest: subject.digest, size: subject.bytes.byteLength },
      }),
    );
    const sig = digestOf(bytes);
    const parsedSig = parseManifest(bytes, OCI_MANIFEST);
    if (!parsedSig.ok) assert.fail(parsedSig.failure.message);
    await tx((t) => putManifest(t, repo, sig, parsedSig.manifest, bytes));

    const plan = await markRepo(store.db, repo, FUTURE, true);
    assert.equal(plan.manifests.length, 3);
    assert.ok(plan.manifests.indexOf(subject.digest) < plan.manifests.indexOf(sig), 'a subject is deleted before its referrers');
    // After the mark: an index listing the child is pushed (untagged, so the mark would call it dead too), and the subject is tagged.
    const indexBytes = new TextEncoder().encode(
      JSON.stringify({
        schemaVersion: 2,
        mediaType: 'application/vnd.oci.image.index.v1+json',
        manifests: [{ mediaType: OCI_MANIFEST, digest: child.digest, size: child.bytes.byteLength }],
      }),
    );
    const parsedIndex = parseManifest(indexBytes, undefined);
    if (!parsedIndex.ok) assert.fail(parsedIndex.failure.message);
    await tx((t) => putManifest(t, repo, digestOf(indexBytes), parsedIndex.manifest, indexBytes));
    await tx((t) => setTag(t, repo, 'v1', subject.digest));

    assert.equal(await sweepManifestBatch(store, repo, plan.manifests, FUTURE), 0);
    for (const d of [child.digest, subject.digest, sig]) assert.ok(await present(repo, d), `${d} stays`);
  });

  it('keeps a blob link a manifest pushed after the mark lists, or a push renewed, and removes it otherwise', async () => {
    const repo = await newRepo();
    const [a, b, c] = [randomBytes(8), randomBytes(8), randomBytes(8)].map((x) => ({ digest: digestOf(x), size: 8 }));
    for (const x of [a, b, c]) await tx((t) => linkBlob(t, repo, x.digest, x.size, T0));
    const plan = await markRepo(store.db, repo, FUTURE, false);
    assert.deepEqual(plan.links, [a, b, c].map((x) => x.digest).sort());

    const m = await manifestOver(repo, a, []);
    assert.equal((await tx(m.put)).ok, true);
    const renewedAt = new Date().toISOString();
    await tx((t) => linkBlob(t, repo, b.digest, b.size)); // the same blob pushed again: push_time renewed
    assert.equal(await sweepLinkBatch(store, repo, plan.links, renewedAt), 1);
    assert.deepEqual(await Promise.all([a, b, c].map((x) => repoHasBlob(store.db, repo, x.digest))), [true, true, false]);
  });

  it('deletes a blob with no link and old bytes, keeps one linked or with bytes committed within the grace, and clears bytes with no row', async () => {
    const repo = await newRepo();
    const linked = await storeBytes(randomBytes(100));
    await tx((t) => linkCommittedBlob(t, blobs, repo, linked, 100));
    assert.deepEqual(await collectBlob(store, blobs, linked, new Date(FUTURE)), { deleted: false, reason: 'linked' });

    const fresh = await storeBytes(randomBytes(200));
    assert.deepEqual(await collectBlob(store, blobs, fresh, new Date(Date.now() - 60_000)), { deleted: false, reason: 'fresh' });
    assert.ok(existsSync(join(dataDir, 'registry', 'blobs', 'sha256', fresh.hex.slice(0, 2), fresh.hex)));
    const old = new Date('2000-01-01T00:00:00Z');
    utimesSync(join(dataDir, 'registry', 'blobs', 'sha256', fresh.hex.slice(0, 2), fresh.hex), old, old);
    assert.deepEqual(await collectBlob(store, blobs, fresh, new Date(Date.now() - 60_000)), { deleted: true, bytes: 200 });
    assert.equal(await blobs.stat(fresh), undefined);
    assert.equal((await store.db.selectFrom('blobs').select('digest').where('digest', '=', fresh.text).execute()).length, 0, 'no placeholder is left');
  });

  it('refuses to link bytes gc deleted while the link waited for its lock, and links bytes committed after the deletion', async () => {
    const repo = await newRepo();
    const bytes = randomBytes(300);
    const digest = await storeBytes(bytes);

    /** gc's collection step held open: row locked, row and bytes deleted, then `meanwhile`, then the commit; a link is tried meanwhile. */
    const race = async (meanwhile: () => Promise<unknown>): Promise<string[]> => {
      const events: string[] = [];
      let locked!: () => void;
      const isLocked = new Promise<void>((r) => {
        locked = r;
      });
      const gcTx = tx(async (t) => {
        await t
          .insertInto('blobs')
          .values({ digest: digest.text, size: 300, create_time: T0 })
          .onConflict((oc) => oc.column('digest').doNothing())
          .execute();
        await capabilitiesOf(t)
          .lockRows(t.selectFrom('blobs').select('digest').where('digest', '=', digest.text), 'exclusive')
          .executeTakeFirst();
        await t.deleteFrom('blobs').where('digest', '=', digest.text).execute();
        await blobs.delete(digest);
        locked();
        await meanwhile();
        await sleep(200); // time for a link that did not wait to finish first
        events.push('gc committed');
      });
      await isLocked;
      const link = tx((t) => linkCommittedBlob(t, blobs, repo, digest, 300)).then(
        () => events.push('linked'),
        (err) => events.push(err instanceof BlobCollectedError ? 'refused' : String(err)),
      );
      await Promise.all([gcTx, link]);
      return events;
    };

    // The push committed its bytes before gc deleted them: the link waits, then finds them gone.
    assert.deepEqual(await race(async () => undefined), ['gc committed', 'refused']);
    assert.equal(await repoHasBlob(store.db, repo, digest.text), false);
    // The push commits its bytes after gc deleted them: they stay, and the link is made.
    assert.deepEqual(await race(() => storeBytes(bytes)), ['gc committed', 'linked']);
    assert.equal(await repoHasBlob(store.db, repo, digest.text), true);
    assert.ok(await blobs.stat(digest));
  });

  it('makes a manifest push wait for gc to finish with the repo, then refuses it when gc removed a blob it lists', async () => {
    const repo = await newRepo();
    const config = { digest: digestOf(randomBytes(8)), size: 8 };
    await tx((t) => linkBlob(t, repo, config.digest, config.size, T0));
    const m = await manifestOver(repo, config, []);

    let locked!: () => void;
    const isLocked = new Promise<void>((r) => {
      locked = r;
    });
    const events: string[] = [];
    const gcTx = tx(async (t) => {
      assert.ok(await lockRepoContent(t, repo, 'exclusive'));
      locked();
      await sleep(200);
      await t.deleteFrom('repo_blobs').where('repo_uid', '=', repo).execute();
      events.push('gc removed the link');
    });
    await isLocked;
    const push = tx(m.put).then((r) => {
      events.push(r.ok ? 'stored' : r.failure.code);
    });
    await Promise.all([gcTx, push]);
    assert.deepEqual(events, ['gc removed the link', 'MANIFEST_BLOB_UNKNOWN']);
    assert.equal(await present(repo, m.digest), false);
  });
});

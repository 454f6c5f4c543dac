// The S3 blob store on a real object store (Ceph RGW; see
// test/harness/s3-test-bucket.ts): the driver suite every blob store passes,
// then what only an object store has — a commit from another instance
// (no kept hash) that finds the wrong digest and leaves the upload to continue,
// multipart parts and tails across appends, one appending instance at a time,
// a store that cannot be reached,
// and gc aborting abandoned multipart uploads and deleting bytes in batches.
// Tests share one database (upload rows are listed per bucket and prefix);
// each has a prefix of its own in the bucket.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { PassThrough } from 'node:stream';
import { setTimeout as sleep } from 'node:timers/promises';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it, type TestContext } from 'node:test';
import { CreateMultipartUploadCommand, ListMultipartUploadsCommand, PutObjectCommand } from '@aws-sdk/client-s3';
import { BlobStoreUnavailableError, DigestMismatchError, UploadOffsetError } from '../../src/registry/blobs/blob-store.js';
import { MIN_PART_SIZE, S3BlobStore } from '../../src/registry/blobs/s3-blob-store.js';
import { S3Bucket } from '../../src/registry/blobs/s3-bucket.js';
import { S3Layout } from '../../src/registry/blobs/s3-layout.js';
import { digestOf } from '../../src/registry/content/digest.js';
import { runGc } from '../../src/registry/gc/run-gc.js';
import { openStore, type Store } from '../../src/store/store.js';
import { dropDatabase, freshDatabase } from '../harness/berth-process.js';
import { clientOf, emptyPrefix, freshPrefix, keysUnder, type TestBucket, testBucket } from '../harness/s3-test-bucket.js';
import { blobStoreSuite, digest, readAll, streamOf } from './blob-store-suite.js';

const MiB = 1 << 20;
const bucket = await testBucket();

interface Opened {
  store: Store;
  prefix: string;
  blobs: () => S3BlobStore;
  cleanup: () => Promise<void>;
}

let shared: { store: Store; close: () => Promise<void> } | undefined;

/** The file's database, opened by the first test and closed after the last. */
async function sharedStore(): Promise<Store> {
  if (shared === undefined) {
    const dir = await mkdtemp(join(tmpdir(), 'berth-s3-'));
    const databaseUrl = await freshDatabase();
    const store = await openStore({ dataDir: dir, databaseUrl, poolSize: 2 });
    shared = {
      store,
      close: async () => {
        await store.close();
        await dropDatabase(databaseUrl);
        await rm(dir, { recursive: true, force: true });
      },
    };
  }
  return shared.store;
}

/** A prefix over the file's database; `blobs()` is one more instance over both (a restart, another server). */
async function openS3(b: TestBucket, endpoint = b.endpoint): Promise<Opened> {
  Object.assign(process.env, b.env); // the SDK's default chain reads the keys from the environment, as a server's would
  const store = await sharedStore();
  const prefix = freshPrefix();
  const made: S3BlobStore[] = [];
  const blobs = () => {
    const s = new S3BlobStore(
      new S3Bucket(b.bucket, { endpoint, pathStyle: true, maxAttempts: 2 }),
      new S3Layout({ bucket: b.bucket, prefix: `${prefix}/` }),
      store,
      { partSize: MIN_PART_SIZE },
    );
    made.push(s);
    return s;
  };
  return {
    store,
    prefix,
    blobs,
    cleanup: async () => {
      for (const s of made) await s.close();
      await abortAll(b, prefix);
      await emptyPrefix(b, prefix);
    },
  };
}

async function abortAll(b: TestBucket, prefix: string): Promise<void> {
  const s3 = new S3Bucket(b.bucket, { endpoint: b.endpoint, pathStyle: true });
  for await (const u of s3.multipartUploads(prefix)) await s3.abort(u.key, u.uploadId);
  s3.close();
}

async function multipartKeys(b: TestBucket, prefix: string): Promise<string[]> {
  const client = clientOf(b);
  try {
    const r = await client.send(new ListMultipartUploadsCommand({ Bucket: b.bucket, Prefix: prefix }));
    return (r.Uploads ?? []).map((u) => u.Key!);
  } finally {
    client.destroy();
  }
}

if (typeof bucket === 'string') {
  describe('S3 blob store', () => {
    it('runs against a real object store', (t) => {
      t.skip(bucket);
    });
  });
} else {
  const b: TestBucket = bucket;
  after(() => shared?.close());
  blobStoreSuite('S3 (Ceph RGW)', async () => {
    const o = await openS3(b);
    return { store: o.blobs(), reopen: async () => o.blobs(), cleanup: o.cleanup };
  });

  describe('S3 blob store', () => {
    async function setUp(t: TestContext, endpoint?: string): Promise<Opened> {
      const o = await openS3(b, endpoint);
      t.after(o.cleanup);
      return o;
    }

    it('keeps parts and tails across appends, and a wrong digest found by another instance is never visible and leaves the upload to continue', async (t) => {
      const o = await setUp(t);
      const bytes = randomBytes(2 * MIN_PART_SIZE + 3 * MiB);
      const first = o.blobs();
      const { id } = await first.createUpload();
      // A tail (under a part), then a chunk that fills it into a part and leaves a new tail, then more.
      const cuts = [0, 3 * MiB, MIN_PART_SIZE + MiB, 2 * MIN_PART_SIZE + MiB];
      for (let i = 1; i < cuts.length; i++) await first.append(id, cuts[i - 1], streamOf(bytes.subarray(cuts[i - 1], cuts[i])));
      // Another instance has no hash of what the first one took: it reads the upload back to verify.
      const second = o.blobs();
      const wrong = digest(randomBytes(32));
      await assert.rejects(second.commit(id, wrong), (err) => err instanceof DigestMismatchError && err.actual === digestOf(bytes.subarray(0, cuts[3])));
      assert.equal(await second.stat(wrong), undefined, 'nothing under the wrong digest');
      assert.equal(await second.stat(digest(bytes.subarray(0, cuts[3]))), undefined, 'nor under the right one: no commit asked for it');
      assert.deepEqual(await keysUnder(bucket, `${o.prefix}/blobs/`), []);
      assert.equal((await second.upload(id))!.size, cuts[3]);
      // The upload goes on, on a third instance, and commits there (again without a kept hash).
      const third = o.blobs();
      await third.append(id, cuts[3], streamOf(bytes.subarray(cuts[3])));
      const info = await o.blobs().commit(id, digest(bytes));
      assert.equal(info.size, bytes.length);
      assert.deepEqual(await readAll((await third.read(digest(bytes)))!), bytes);
      assert.deepEqual(await keysUnder(bucket, `${o.prefix}/uploads/`), [], 'no temporary object left');
      assert.deepEqual(await multipartKeys(bucket, `${o.prefix}/`), [], 'no multipart upload left');
    });

    it('lets one instance append to an upload at a time: another is told the acknowledged offset meanwhile', async (t) => {
      const o = await setUp(t);
      const bytes = randomBytes(2 * MiB);
      const one = o.blobs();
      const other = o.blobs();
      const { id } = await one.createUpload();
      await one.append(id, 0, streamOf(bytes.subarray(0, MiB)));
      const body = new PassThrough();
      const running = one.append(id, MiB, body);
      body.write(bytes.subarray(MiB, MiB + 1000));
      await sleep(200); // the first append holds the lease
      await assert.rejects(other.append(id, MiB, streamOf(bytes.subarray(MiB))), (err) => err instanceof UploadOffsetError && err.expected === MiB);
      await assert.rejects(other.commit(id, digest(bytes)), UploadOffsetError);
      body.end(bytes.subarray(MiB + 1000));
      assert.equal((await running).size, bytes.length);
      assert.equal((await other.commit(id, digest(bytes))).size, bytes.length, 'free again once the append is done');
    });

    it('answers BlobStoreUnavailableError when the store cannot be reached, and keeps what was acknowledged', async (t) => {
      const closed = 'http://127.0.0.1:9'; // discard: nothing listens
      const o = await setUp(t, closed);
      const blobs = o.blobs();
      await assert.rejects(blobs.stat(digest(randomBytes(4))), BlobStoreUnavailableError);
      const { id } = await blobs.createUpload();
      // An append that fills a part needs the store: refused, and the upload stays where it was.
      await assert.rejects(blobs.append(id, 0, streamOf(randomBytes(MIN_PART_SIZE + 10))), BlobStoreUnavailableError);
      assert.equal((await blobs.upload(id))!.size, 0);
    });

    it('gc aborts abandoned multipart uploads, cancels stale uploads and deletes unreferenced bytes', async (t) => {
      const o = await setUp(t);
      const blobs = o.blobs();
      const client = clientOf(bucket);
      t.after(() => client.destroy());
      // An upload with bytes in a part and a tail, a multipart upload no row records, and bytes no row names.
      const stale = await blobs.createUpload();
      await blobs.append(stale.id, 0, streamOf(randomBytes(MIN_PART_SIZE + 100)));
      const orphanId = randomBytes(16).toString('hex');
      await client.send(new CreateMultipartUploadCommand({ Bucket: bucket.bucket, Key: `${o.prefix}/uploads/${orphanId}/data` }));
      const loose = randomBytes(1000);
      await client.send(
        new PutObjectCommand({
          Bucket: bucket.bucket,
          Key: `${o.prefix}/blobs/sha256/${digestOf(loose).slice(7, 9)}/${digestOf(loose).slice(7)}`,
          Body: loose,
        }),
      );
      assert.equal((await multipartKeys(bucket, `${o.prefix}/`)).length, 2);
      const report = await runGc(
        { store: o.store, blobs },
        { graceMs: 0, uploadGraceMs: 0, deleteUntagged: false, dryRun: false, now: new Date(Date.now() + 5000) },
      );
      assert.equal(report.uploadsCancelled, 2);
      assert.equal(report.blobsDeleted, 1);
      assert.deepEqual(await multipartKeys(bucket, `${o.prefix}/`), []);
      assert.deepEqual(await keysUnder(bucket, `${o.prefix}/`), []);
      assert.equal(await blobs.upload(stale.id), undefined);
    });
  });
}

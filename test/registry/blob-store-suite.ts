// The conformance suite every blob store driver passes (the filesystem one
// now, an object store later): what the registry's HTTP handlers rely on —
// uploads in chunks at checked offsets, digest-verified commits, ranged reads,
// gc's listings, restarts, concurrency and clients that go away mid-chunk.
// Longer than most files because it is one list of cases, each a behaviour.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { PassThrough, Readable, Writable } from 'node:stream';
import { describe, it, type TestContext } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import {
  BlobCollectedError,
  type BlobStore,
  DigestMismatchError,
  UploadNotFoundError,
  UploadOffsetError,
  UploadTooLargeError,
} from '../../src/registry/blobs/blob-store.js';
import { type Digest, type DigestAlgorithm, digester, digestOf, parseDigest } from '../../src/registry/content/digest.js';

export interface OpenedStore {
  store: BlobStore;
  /** A new instance over the same storage, as after a restart. */
  reopen: () => Promise<BlobStore>;
  cleanup: () => Promise<void>;
}

const MiB = 1 << 20;

export function digest(bytes: Uint8Array, algorithm: DigestAlgorithm = 'sha256'): Digest {
  return parseDigest(digestOf(bytes, algorithm))!;
}

/** `bytes` as a stream of `size`-byte chunks, the way a request body arrives. */
export function streamOf(bytes: Uint8Array, size = 64 * 1024): Readable {
  return Readable.from(
    (function* () {
      for (let i = 0; i < bytes.length; i += size) yield Buffer.from(bytes.subarray(i, i + size));
    })(),
  );
}

/** A stream that yields `bytes` and then fails, as a request body does when the client disconnects. */
export function failingStreamOf(bytes: Uint8Array): Readable {
  return Readable.from(
    (async function* () {
      yield* streamOf(bytes, 1024);
      throw new Error('client went away');
    })(),
  );
}

export async function readAll(stream: Readable): Promise<Buffer> {
  const parts: Buffer[] = [];
  for await (const chunk of stream) parts.push(chunk as Buffer);
  return Buffer.concat(parts);
}

async function collect<T>(items: AsyncIterable<T>): Promise<T[]> {
  const all: T[] = [];
  for await (const item of items) all.push(item);
  return all;
}

async function push(store: BlobStore, bytes: Uint8Array, algorithm: DigestAlgorithm = 'sha256') {
  const { id } = await store.createUpload();
  await store.append(id, 0, streamOf(bytes));
  return store.commit(id, digest(bytes, algorithm));
}

export function blobStoreSuite(name: string, open: () => Promise<OpenedStore>): void {
  async function setUp(t: TestContext): Promise<OpenedStore> {
    const opened = await open();
    t.after(opened.cleanup);
    return opened;
  }

  describe(`blob store driver: ${name}`, () => {
    it('takes a blob in one append, commits it and reads it back', async (t) => {
      const { store } = await setUp(t);
      const bytes = randomBytes(300_000);
      const upload = await store.createUpload();
      assert.equal(upload.size, 0);
      assert.deepEqual(await store.upload(upload.id), upload);
      assert.deepEqual(await store.append(upload.id, 0, streamOf(bytes)), { ...upload, size: bytes.length });
      const before = Date.now();
      const info = await store.commit(upload.id, digest(bytes));
      assert.equal(info.digest, digestOf(bytes));
      assert.equal(info.size, bytes.length);
      assert.ok(info.modified.getTime() >= before - 2000, 'modified is the commit time');
      assert.deepEqual(await store.stat(digest(bytes)), info);
      assert.deepEqual(await readAll((await store.read(digest(bytes)))!), bytes);
      assert.equal(await store.upload(upload.id), undefined, 'a committed upload is gone');
      assert.deepEqual(await collect(store.uploads()), []);
    });

    it('takes a blob in chunks, each at the size the last one left', async (t) => {
      const { store } = await setUp(t);
      const bytes = randomBytes(3 * MiB + 17);
      const { id } = await store.createUpload();
      const cuts = [0, 1, MiB, 2 * MiB + 5, bytes.length];
      for (let i = 1; i < cuts.length; i++) {
        const after = await store.append(id, cuts[i - 1], streamOf(bytes.subarray(cuts[i - 1], cuts[i])));
        assert.equal(after.size, cuts[i]);
        assert.equal((await store.upload(id))!.size, cuts[i]);
      }
      await store.commit(id, digest(bytes));
      assert.deepEqual(await readAll((await store.read(digest(bytes)))!), bytes);
    });

    it("leaves the caller's buffers as they were, unless told the chunks are the store's own", async (t) => {
      const { store } = await setUp(t);
      const bytes = randomBytes(4 * MiB);
      const borrowed = [Buffer.from(bytes.subarray(0, MiB)), Buffer.from(bytes.subarray(MiB, 2 * MiB))];
      const { id } = await store.createUpload();
      await store.append(id, 0, Readable.from(borrowed));
      assert.deepEqual(Buffer.concat(borrowed), bytes.subarray(0, 2 * MiB), 'a borrowed chunk is untouched');
      const owned = [Buffer.from(bytes.subarray(2 * MiB, 3 * MiB)), Buffer.from(bytes.subarray(3 * MiB))];
      assert.equal((await store.append(id, 2 * MiB, Readable.from(owned), undefined, 'owned')).size, bytes.length);
      await store.commit(id, digest(bytes));
      assert.deepEqual(await readAll((await store.read(digest(bytes)))!), bytes);
    });

    it('commits an empty blob', async (t) => {
      const { store } = await setUp(t);
      const { id } = await store.createUpload();
      const info = await store.commit(id, digest(Buffer.alloc(0)));
      assert.equal(info.size, 0);
      assert.deepEqual(await readAll((await store.read(digest(Buffer.alloc(0))))!), Buffer.alloc(0));
    });

    it('refuses an append at any offset but the upload size and writes nothing', async (t) => {
      const { store } = await setUp(t);
      const bytes = randomBytes(5000);
      const { id } = await store.createUpload();
      await store.append(id, 0, streamOf(bytes.subarray(0, 1000)));
      for (const offset of [0, 999, 1001, 5000]) {
        await assert.rejects(store.append(id, offset, streamOf(bytes.subarray(offset))), (err) => err instanceof UploadOffsetError && err.expected === 1000);
      }
      assert.equal((await store.upload(id))!.size, 1000);
      await store.append(id, 1000, streamOf(bytes.subarray(1000)));
      await store.commit(id, digest(bytes));
      assert.deepEqual(await readAll((await store.read(digest(bytes)))!), bytes);
    });

    it('refuses a commit under the wrong digest and keeps the upload usable', async (t) => {
      const { store } = await setUp(t);
      const bytes = randomBytes(100_000);
      const { id } = await store.createUpload();
      await store.append(id, 0, streamOf(bytes.subarray(0, 60_000)));
      const wrong = digest(randomBytes(10));
      await assert.rejects(store.commit(id, wrong), (err) => err instanceof DigestMismatchError && err.actual === digestOf(bytes.subarray(0, 60_000)));
      await assert.rejects(store.commit(id, digest(bytes)), DigestMismatchError, 'the whole content is not there yet');
      assert.equal(await store.stat(wrong), undefined);
      assert.equal(await store.stat(digest(bytes)), undefined);
      assert.equal((await store.upload(id))!.size, 60_000);
      await store.append(id, 60_000, streamOf(bytes.subarray(60_000)));
      assert.equal((await store.commit(id, digest(bytes))).size, bytes.length);
    });

    it('commits under a sha512 digest', async (t) => {
      const { store } = await setUp(t);
      const bytes = randomBytes(2 * MiB);
      const { id } = await store.createUpload();
      await store.append(id, 0, streamOf(bytes.subarray(0, MiB)));
      await store.append(id, MiB, streamOf(bytes.subarray(MiB)));
      await assert.rejects(store.commit(id, digest(randomBytes(5), 'sha512')), DigestMismatchError);
      const info = await store.commit(id, digest(bytes, 'sha512'));
      assert.equal(info.digest, digestOf(bytes, 'sha512'));
      assert.equal(await store.stat(digest(bytes)), undefined, 'stored under the digest it was committed as');
      assert.deepEqual(await readAll((await store.read(digest(bytes, 'sha512')))!), bytes);
    });

    it('reads ranges: from an offset, between offsets, and empty at the end', async (t) => {
      const { store } = await setUp(t);
      const bytes = randomBytes(3 * MiB + 3);
      const d = digest(bytes);
      await push(store, bytes);
      const read = async (range: { offset: number; end?: number }) => readAll((await store.read(d, range))!);
      assert.deepEqual(await read({ offset: 0 }), bytes);
      assert.deepEqual(await read({ offset: 1234 }), bytes.subarray(1234));
      assert.deepEqual(await read({ offset: 10, end: 20 }), bytes.subarray(10, 20));
      assert.deepEqual(await read({ offset: MiB - 1, end: 2 * MiB + 1 }), bytes.subarray(MiB - 1, 2 * MiB + 1));
      assert.deepEqual(await read({ offset: bytes.length - 1 }), bytes.subarray(bytes.length - 1));
      assert.equal((await read({ offset: bytes.length })).length, 0);
      assert.equal((await read({ offset: 7, end: 7 })).length, 0);
      assert.deepEqual(await read({ offset: 5, end: bytes.length + 100 }), bytes.subarray(5), 'end is clamped to the size');
      for (const bad of [{ offset: -1 }, { offset: 1.5 }, { offset: 10, end: 9 }]) await assert.rejects(store.read(d, bad), RangeError);
      assert.equal(await store.read(digest(randomBytes(3))), undefined);
    });

    it('copies a blob or a range to a sink, each buffer untouched until the sink has called back', async (t) => {
      const { store } = await setUp(t);
      const bytes = randomBytes(3 * MiB + 5);
      const d = digest(bytes);
      await push(store, bytes);
      // A sink that looks at each chunk only when it calls back, a tick later: a
      // buffer refilled before its write finished would show up as wrong bytes.
      const copy = async (range?: { offset: number; end?: number }) => {
        const got: Buffer[] = [];
        const sink = new Writable({
          highWaterMark: 1,
          write(chunk: Buffer, _enc, done) {
            setImmediate(() => {
              got.push(Buffer.from(chunk));
              done();
            });
          },
        });
        const found = await store.copyTo(d, range, sink);
        return { found, bytes: Buffer.concat(got) };
      };
      assert.deepEqual(await copy(), { found: true, bytes });
      assert.deepEqual((await copy({ offset: MiB - 1, end: 2 * MiB + 1 })).bytes, bytes.subarray(MiB - 1, 2 * MiB + 1));
      assert.deepEqual((await copy({ offset: bytes.length })).bytes, Buffer.alloc(0));
      assert.deepEqual(await copy({ offset: 0, end: 0 }), { found: true, bytes: Buffer.alloc(0) });
      await assert.rejects(copy({ offset: 3, end: 2 }), RangeError);
      const absent = new Writable({ write: (_c, _e, done) => done() });
      assert.equal(await store.copyTo(digest(randomBytes(3)), undefined, absent), false);
      const failing = new Writable({ write: (_c, _e, done) => done(new Error('client went away')) });
      failing.on('error', () => {});
      await assert.rejects(store.copyTo(d, undefined, failing), /client went away/);
    });

    it('stats, lists and deletes committed blobs', async (t) => {
      const { store } = await setUp(t);
      const a = randomBytes(1000);
      const b = randomBytes(2000);
      const c = randomBytes(3000);
      await push(store, a);
      await push(store, b);
      await push(store, c, 'sha512');
      const listed = (await collect(store.list())).map((i) => `${i.digest} ${i.size}`).sort();
      assert.deepEqual(listed, [`${digestOf(a)} 1000`, `${digestOf(b)} 2000`, `${digestOf(c, 'sha512')} 3000`].sort());
      for (const info of await collect(store.list())) assert.ok(info.modified instanceof Date);
      assert.equal(await store.delete(digest(a)), true);
      assert.equal(await store.delete(digest(a)), false);
      assert.equal(await store.stat(digest(a)), undefined);
      assert.equal(await store.read(digest(a)), undefined);
      assert.equal((await store.stat(digest(b)))!.size, 2000);
      assert.deepEqual((await collect(store.list())).map((i) => i.digest).sort(), [digestOf(b), digestOf(c, 'sha512')].sort());
    });

    it('lists uploads in progress with their sizes', async (t) => {
      const { store } = await setUp(t);
      const one = await store.createUpload();
      const two = await store.createUpload();
      assert.notEqual(one.id, two.id);
      await store.append(two.id, 0, streamOf(randomBytes(4321)));
      const listed = (await collect(store.uploads())).map((u) => `${u.id} ${u.size}`).sort();
      assert.deepEqual(listed, [`${one.id} 0`, `${two.id} 4321`].sort());
      for (const u of await collect(store.uploads())) assert.ok(u.started instanceof Date);
    });

    it('cancels an upload: its bytes go and its id is unknown from then on', async (t) => {
      const { store } = await setUp(t);
      const bytes = randomBytes(10_000);
      const { id } = await store.createUpload();
      await store.append(id, 0, streamOf(bytes));
      assert.equal(await store.cancel(id), true);
      assert.equal(await store.upload(id), undefined);
      await assert.rejects(store.append(id, 10_000, streamOf(bytes)), UploadNotFoundError);
      await assert.rejects(store.commit(id, digest(bytes)), UploadNotFoundError);
      assert.equal(await store.cancel(id), false);
      assert.deepEqual(await collect(store.uploads()), []);
      assert.equal(await store.stat(digest(bytes)), undefined);
    });

    it('keeps an upload across a restart, and it completes there', async (t) => {
      const { store, reopen } = await setUp(t);
      const bytes = randomBytes(2 * MiB + 1);
      const upload = await store.createUpload();
      await store.append(upload.id, 0, streamOf(bytes.subarray(0, MiB)));
      const again = await reopen();
      assert.deepEqual(await again.upload(upload.id), { ...upload, size: MiB });
      assert.deepEqual(
        (await collect(again.uploads())).map((u) => u.id),
        [upload.id],
      );
      await again.append(upload.id, MiB, streamOf(bytes.subarray(MiB)));
      assert.equal((await again.commit(upload.id, digest(bytes))).size, bytes.length);
      assert.deepEqual(await readAll((await again.read(digest(bytes)))!), bytes);
    });

    it('commits the same content from two uploads at once', async (t) => {
      const { store } = await setUp(t);
      const bytes = randomBytes(5 * MiB);
      const ids = await Promise.all([store.createUpload(), store.createUpload()]);
      await Promise.all(ids.map(({ id }) => store.append(id, 0, streamOf(bytes))));
      const infos = await Promise.all(ids.map(({ id }) => store.commit(id, digest(bytes))));
      for (const info of infos) assert.equal(info.digest, digestOf(bytes));
      assert.deepEqual(
        (await collect(store.list())).map((i) => i.digest),
        [digestOf(bytes)],
      );
      assert.deepEqual(await readAll((await store.read(digest(bytes)))!), bytes);
      // And once more after it is stored.
      assert.equal((await push(store, bytes)).size, bytes.length);
    });

    it('refuses a commit whose bytes gc deleted as it committed them, and takes the content again afterwards', async (t) => {
      const { store } = await setUp(t);
      const bytes = randomBytes(70_000);
      await push(store, bytes); // stored already: the next commit renews these bytes, and gc, having seen them old, deletes them
      const { id } = await store.createUpload();
      await store.append(id, 0, streamOf(bytes));
      const stat = store.stat.bind(store);
      // gc's delete lands between the commit's renewal and its read back of what it stored.
      store.stat = async (d) => {
        await store.delete(d);
        return stat(d);
      };
      try {
        await assert.rejects(store.commit(id, digest(bytes)), (err) => err instanceof BlobCollectedError && err.digest === digestOf(bytes));
      } finally {
        store.stat = stat;
      }
      assert.equal(await store.stat(digest(bytes)), undefined);
      assert.equal((await push(store, bytes)).size, bytes.length, 'pushed again, it is stored');
      assert.deepEqual(await readAll((await store.read(digest(bytes)))!), bytes);
    });

    it('lets exactly one of two concurrent appends at the same offset win, without interleaving', async (t) => {
      const { store } = await setUp(t);
      const a = Buffer.alloc(3 * MiB, 'a');
      const b = Buffer.alloc(3 * MiB + 1, 'b');
      const { id } = await store.createUpload();
      const results = await Promise.allSettled([store.append(id, 0, streamOf(a)), store.append(id, 0, streamOf(b))]);
      const won = results.filter((r) => r.status === 'fulfilled');
      const lost = results.filter((r) => r.status === 'rejected');
      assert.equal(won.length, 1);
      assert.equal(lost.length, 1);
      const winner = won[0].value.size === a.length ? a : b;
      assert.equal(won[0].value.size, winner.length);
      assert.ok(lost[0].reason instanceof UploadOffsetError && lost[0].reason.expected === winner.length, String(lost[0].reason));
      assert.equal((await store.commit(id, digest(winner))).size, winner.length);
    });

    it('counts only what appends acknowledged: not the bytes of one still running, in this instance or another', async (t) => {
      const { store, reopen } = await setUp(t);
      const bytes = randomBytes(3 * MiB);
      const { id } = await store.createUpload();
      await store.append(id, 0, streamOf(bytes.subarray(0, MiB)));
      const body = new PassThrough();
      const running = store.append(id, MiB, body);
      body.write(bytes.subarray(MiB, 2 * MiB));
      const other = await reopen();
      for (let i = 0; i < 10; i++) {
        await sleep(20); // the driver has had time to take (and store) what was written
        assert.equal((await store.upload(id))!.size, MiB, 'an append still running counts for nothing');
        assert.equal((await other.upload(id))!.size, MiB, 'nor seen from another instance');
        assert.deepEqual(
          (await collect(store.uploads())).map((u) => u.size),
          [MiB],
        );
      }
      body.end(bytes.subarray(2 * MiB));
      assert.equal((await running).size, bytes.length);
      assert.equal((await store.upload(id))!.size, bytes.length);
      assert.equal((await store.commit(id, digest(bytes))).size, bytes.length);
    });

    it('leaves an upload resumable when the stream fails mid-chunk', async (t) => {
      const { store } = await setUp(t);
      const bytes = randomBytes(200_000);
      const { id } = await store.createUpload();
      await store.append(id, 0, streamOf(bytes.subarray(0, 50_000)));
      await assert.rejects(store.append(id, 50_000, failingStreamOf(bytes.subarray(50_000, 120_000))), /client went away/);
      const { size } = (await store.upload(id))!;
      assert.ok(size >= 50_000 && size <= 120_000, `size ${size} is a prefix of what was sent`);
      await assert.rejects(store.append(id, size + 1, streamOf(bytes.subarray(size + 1))), UploadOffsetError);
      await store.append(id, size, streamOf(bytes.subarray(size)));
      assert.equal((await store.commit(id, digest(bytes))).size, bytes.length);
      assert.deepEqual(await readAll((await store.read(digest(bytes)))!), bytes);
    });

    it('enforces the limit on an append and leaves the stream to the caller', async (t) => {
      const { store } = await setUp(t);
      const bytes = randomBytes(300_000);
      const { id } = await store.createUpload();
      const tooBig = streamOf(bytes, 10_000);
      await assert.rejects(store.append(id, 0, tooBig, 299_999), UploadTooLargeError);
      assert.equal(tooBig.destroyed, false, 'the caller still owns the stream');
      tooBig.destroy();
      const { size } = (await store.upload(id))!;
      assert.ok(size <= 299_999, `size ${size} within the limit`);
      assert.equal((await store.append(id, size, streamOf(bytes.subarray(size)), bytes.length - size)).size, bytes.length, 'exactly the limit passes');
      await store.commit(id, digest(bytes));
    });

    it('refuses upload ids it did not make', async (t) => {
      const { store } = await setUp(t);
      const { id } = await store.createUpload();
      const bytes = randomBytes(10);
      const bad = ['', '../x', `../${id}`, `${id}/..`, `${id}/../${id}`, id.toUpperCase(), `${id} `, `${id}\0`, 'x'.repeat(100_000), '.', '..', '/etc/passwd'];
      for (const other of bad.filter((b) => b !== id)) {
        assert.equal(await store.upload(other), undefined, JSON.stringify(other.slice(0, 80)));
        await assert.rejects(store.append(other, 0, streamOf(bytes)), UploadNotFoundError);
        await assert.rejects(store.commit(other, digest(Buffer.alloc(0))), UploadNotFoundError);
        assert.equal(await store.cancel(other), false);
      }
      assert.deepEqual(
        (await collect(store.uploads())).map((u) => `${u.id} ${u.size}`),
        [`${id} 0`],
        'nothing was written anywhere',
      );
    });

    it('streams a 256 MiB blob in and out with bounded memory', async (t) => {
      const { store } = await setUp(t);
      const SIZE = 256 * MiB;
      const expected = digester('sha256');
      const base = randomBytes(MiB);
      const rssBefore = process.memoryUsage.rss();
      let rssPeak = rssBefore;
      const source = Readable.from(
        (function* () {
          for (let at = 0; at < SIZE; at += 64 * 1024) {
            const chunk = Buffer.allocUnsafe(64 * 1024);
            base.copy(chunk, 0, at % MiB);
            chunk.writeUInt32BE(at / 1024, 0); // no two chunks alike
            expected.update(chunk);
            if (at % (16 * MiB) === 0) rssPeak = Math.max(rssPeak, process.memoryUsage.rss());
            yield chunk;
          }
        })(),
      );
      const { id } = await store.createUpload();
      assert.equal((await store.append(id, 0, source)).size, SIZE);
      const d = parseDigest(`sha256:${expected.digest('hex')}`)!;
      assert.equal((await store.commit(id, d)).size, SIZE);
      const readBack = digester('sha256');
      let n = 0;
      for await (const chunk of (await store.read(d))!) {
        readBack.update(chunk as Buffer);
        n += (chunk as Buffer).length;
        if (n % (16 * MiB) === 0) rssPeak = Math.max(rssPeak, process.memoryUsage.rss());
      }
      assert.equal(`sha256:${readBack.digest('hex')}`, d.text);
      const growth = Math.max(rssPeak, process.memoryUsage.rss()) - rssBefore;
      // Generating and dropping the chunks alone grows rss by ~64 MiB (V8 collects external memory in steps of about that);
      // a driver that held the blob would add its 256 MiB on top.
      assert.ok(growth < 128 * MiB, `rss grew by ${Math.round(growth / MiB)} MiB for a ${SIZE / MiB} MiB blob`);
    });
  });
}

// The S3 blob store (layout in s3-layout.ts, upload state in the database:
// s3-upload-state.ts). Longer than most files: it is one driver, each method
// a BlobStore operation.
// - An append streams its body into multipart parts of `partSize` bytes
//   (s3-part-stream.ts); the bytes after the last full part go to a tail
//   object; then the database records the new size, parts and tail: only
//   then is the append acknowledged. A failed append records nothing: the
//   upload is where it began (parts it uploaded are overwritten by the next).
// - Commit verifies the digest (from the sha256 state this instance kept
//   while appending, or by reading the assembled upload back), and only then
//   copies the upload into the blob's content-addressed key; a stored blob is
//   never replaced (its time is renewed by copying it onto itself, for gc's
//   grace). A blob key therefore only ever holds complete, verified content.
// - Multipart uploads are bound to a key, so the parts complete into
//   uploads/<id>/data (the temporary key) and are copied from there.
//   A digest that does not match after that reopens the upload from the data
//   object (distribution's trick: it becomes the first part of a new
//   multipart upload), so the client can append and commit again.
import { Readable, type Writable } from 'node:stream';
import type { Store } from '../../store/store.js';
import { type Digest, digester } from '../content/digest.js';
import {
  BlobCollectedError,
  type BlobInfo,
  type BlobStore,
  BlobStoreUnavailableError,
  type ChunkOwnership,
  DigestMismatchError,
  type UploadInfo,
  UploadNotFoundError,
  UploadOffsetError,
} from './blob-store.js';
import { KeyedLock } from './keyed-lock.js';
import type { S3Bucket } from './s3-bucket.js';
import type { S3Layout } from './s3-layout.js';
import { copyObject, copyParts } from './s3-object-copy.js';
import { streamParts } from './s3-part-stream.js';
import {
  deleteUploadState,
  insertUploadState,
  readUploadState,
  recordUnderLease,
  releaseLease,
  renewLease,
  type S3Part,
  type S3UploadState,
  takeLease,
  uploadStateIds,
} from './s3-upload-state.js';
import { UploadHashes } from './upload-hashes.js';
import { isUploadId, newUploadId } from './upload-id.js';
import { checkedRange } from './checked-range.js';
import { written } from './sink-write.js';

const MiB = 1 << 20;
/** S3's smallest part but the last. */
export const MIN_PART_SIZE = 5 * MiB;
/** distribution's default chunk size: 10,000 parts make a blob of up to ~97 GiB. */
export const DEFAULT_PART_SIZE = 10 * MiB;

/** How long an upload's lease lasts unless its holder renews it (every third of it). */
const LEASE_MS = 60_000;

export interface S3BlobStoreOptions {
  partSize?: number;
  /** Presigned URLs for pulls, valid this long (`--blob-redirect`); none when absent. */
  redirectSeconds?: number;
}

export class S3BlobStore implements BlobStore {
  private readonly locks = new KeyedLock();
  private readonly hashes = new UploadHashes();
  private readonly partSize: number;
  private readonly location: string;

  constructor(
    private readonly bucket: S3Bucket,
    private readonly layout: S3Layout,
    private readonly store: Store,
    private readonly opts: S3BlobStoreOptions = {},
  ) {
    this.partSize = opts.partSize ?? DEFAULT_PART_SIZE;
    if (!Number.isSafeInteger(this.partSize) || this.partSize < MIN_PART_SIZE) throw new RangeError(`the part size must be at least ${MIN_PART_SIZE} bytes`);
    this.location = `${layout.location.bucket}/${layout.location.prefix}`;
  }

  async close(): Promise<void> {
    this.bucket.close();
  }

  async stat(digest: Digest): Promise<BlobInfo | undefined> {
    const head = await this.bucket.head(this.layout.blobKey(digest));
    return head && { digest: digest.text, size: head.size, modified: head.modified };
  }

  async read(digest: Digest, range?: { offset: number; end?: number }): Promise<Readable | undefined> {
    const { offset, end } = checkedRange(range);
    const key = this.layout.blobKey(digest);
    if (offset === 0 && end === undefined) return this.bucket.get(key); // no Range header: an empty blob has no satisfiable range
    if (end === offset) return (await this.bucket.head(key)) && empty();
    try {
      return await this.bucket.get(key, { start: offset, end });
    } catch (err) {
      // 416: the range starts at or past the end; the blob exists.
      if ((err as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode === 416) return empty();
      throw err;
    }
  }

  async copyTo(digest: Digest, range: { offset: number; end?: number } | undefined, sink: Writable): Promise<boolean> {
    const stream = await this.read(digest, range);
    if (stream === undefined) return false;
    try {
      for await (const chunk of stream) await written(sink, chunk as Uint8Array);
      return true;
    } finally {
      stream.destroy();
    }
  }

  async delete(digest: Digest): Promise<boolean> {
    const key = this.layout.blobKey(digest);
    if ((await this.bucket.head(key)) === undefined) return false;
    await this.bucket.delete(key);
    return true;
  }

  async *list(): AsyncIterable<BlobInfo> {
    for await (const o of this.bucket.list(this.layout.blobs)) {
      const d = this.layout.digestOfKey(o.key);
      if (d !== undefined) yield { digest: d.text, size: o.size, modified: o.modified };
    }
  }

  async createUpload(): Promise<UploadInfo> {
    const id = newUploadId();
    const started = new Date();
    await insertUploadState(this.store, this.location, id, started); // the multipart upload starts with the first full part
    return { id, size: 0, started };
  }

  async upload(id: string): Promise<UploadInfo | undefined> {
    if (!isUploadId(id)) return undefined;
    const state = await readUploadState(this.store, id);
    return state && { id, size: state.size, started: state.started };
  }

  async append(id: string, offset: number, data: Readable, limit = Number.MAX_SAFE_INTEGER, chunks: ChunkOwnership = 'borrowed'): Promise<UploadInfo> {
    if (!Number.isSafeInteger(offset) || offset < 0) throw new RangeError('invalid upload offset');
    if (!Number.isSafeInteger(limit) || limit < 0) throw new RangeError('invalid upload limit');
    return this.underLease(id, async (state, lease, held) => {
      if (offset !== state.size) throw new UploadOffsetError(state.size);
      const hash = state.size === 0 ? digester('sha256') : this.hashes.get(id, state.size);
      const before = hash?.copy();
      let { multipartId } = state;
      const parts = [...state.parts];
      const data_ = this.layout.uploadData(id);
      try {
        const tail = await this.readTail(state);
        const result = await streamParts(
          data,
          tail,
          this.partSize,
          limit,
          hash,
          {
            part: async (bytes) => {
              if (!held()) throw new BlobStoreUnavailableError(`upload ${id} lost its lease to another instance`);
              multipartId ??= await this.bucket.createMultipart(data_);
              const etag = await this.bucket.uploadPart(data_, multipartId, parts.length + 1, bytes);
              if (etag === undefined) throw new UploadNotFoundError(); // cancelled meanwhile
              parts.push({ etag, size: bytes.byteLength });
            },
          },
          chunks,
        );
        const size = offset + result.taken;
        const tailStart = size - result.tail.byteLength;
        if (result.tail.byteLength > 0) await this.bucket.put(this.layout.tail(id, tailStart), result.tail);
        if (!(await recordUnderLease(this.store, id, lease, { size, multipartId, parts, tailSize: result.tail.byteLength }))) throw new UploadNotFoundError();
        if (hash !== undefined) this.hashes.set(id, hash, size);
        // The old tail is now in a part or under the new tail's key (when it starts at the same offset, the new one extends it).
        const oldTail = state.size - state.tailSize;
        if (state.tailSize > 0 && oldTail !== tailStart) await this.bucket.delete(this.layout.tail(id, oldTail)).catch(() => {});
        return { id, size, started: state.started };
      } catch (err) {
        if (before !== undefined) this.hashes.set(id, before, offset);
        else this.hashes.delete(id);
        if (multipartId !== undefined && state.multipartId === undefined) await this.bucket.abort(data_, multipartId).catch(() => {});
        throw err;
      }
    });
  }

  async commit(id: string, digest: Digest): Promise<BlobInfo> {
    const target = this.layout.blobKey(digest); // checks the digest before anything is touched
    return this.underLease(id, async (state, lease) => {
      const kept = digest.algorithm === 'sha256' ? this.hashes.get(id, state.size) : undefined;
      if (kept !== undefined) {
        const actual = kept.copy().digest('hex');
        if (actual !== digest.hex) throw new DigestMismatchError(`${digest.algorithm}:${actual}`);
      }
      const source = await this.assemble(state);
      if (kept === undefined) {
        const actual = await this.digestOf(source, digest);
        if (actual !== digest.hex) {
          if (source === this.layout.uploadData(id)) await this.reopen(state, lease);
          throw new DigestMismatchError(`${digest.algorithm}:${actual}`);
        }
      }
      const stored = await this.bucket.head(target);
      if (stored === undefined) {
        if (source === undefined) await this.bucket.put(target, new Uint8Array(0));
        else await copyObject(this.bucket, source, target, state.size);
      } else {
        await copyObject(this.bucket, target, target, stored.size); // never replaced: its time renewed, for gc's grace
      }
      this.hashes.delete(id);
      await deleteUploadState(this.store, id); // committed from here on; what is left below, gc clears
      await this.removeObjects(id).catch(() => {});
      const info = await this.stat(digest);
      if (info === undefined) throw new BlobCollectedError(digest.text); // gc took the bytes it renewed, before this read them back
      return info;
    });
  }

  async cancel(id: string): Promise<boolean> {
    if (!isUploadId(id)) return false;
    return this.locks.run(id, async () => {
      this.hashes.delete(id);
      const recorded = await deleteUploadState(this.store, id); // an append elsewhere can no longer record
      const left = await this.removeObjects(id);
      return recorded || left;
    });
  }

  async *uploads(): AsyncIterable<UploadInfo> {
    const seen = new Set<string>();
    for await (const id of uploadStateIds(this.store, this.location)) {
      const state = await readUploadState(this.store, id);
      if (state === undefined) continue;
      seen.add(id);
      yield { id, size: state.size, started: state.started };
    }
    // What no row records: a crash between a commit's end and its cleanup, multipart uploads abandoned by a failed append.
    const orphans = new Map<string, Date>();
    for await (const o of this.bucket.list(this.layout.uploads)) note(orphans, this.layout.uploadIdOfKey(o.key), o.modified);
    for await (const u of this.bucket.multipartUploads(this.layout.uploads)) note(orphans, this.layout.uploadIdOfKey(u.key), u.started);
    for (const [id, started] of orphans) if (!seen.has(id) && (await readUploadState(this.store, id)) === undefined) yield { id, size: 0, started };
  }

  async redirectUrl(digest: Digest): Promise<string | undefined> {
    if (this.opts.redirectSeconds === undefined) return undefined;
    return this.bucket.presignGet(this.layout.blobKey(digest), this.opts.redirectSeconds);
  }

  /**
   * Runs `work` on the upload's state holding its lease (this instance's
   * lock, then the database's), renewed while it runs. `held()` turns false
   * once a renewal finds the lease lost: the work stops before its next part.
   */
  private async underLease<T>(id: string, work: (state: S3UploadState, lease: string, held: () => boolean) => Promise<T>): Promise<T> {
    if (!isUploadId(id)) throw new UploadNotFoundError();
    return this.locks.run(id, async () => {
      const lease = await takeLease(this.store, id, LEASE_MS);
      if (lease === undefined) {
        const state = await readUploadState(this.store, id);
        if (state === undefined) throw new UploadNotFoundError();
        throw new UploadOffsetError(state.size); // an append on another instance is running: the client asks where to resume
      }
      let held = true;
      const renewal = setInterval(() => {
        renewLease(this.store, id, lease, LEASE_MS).then(
          (still) => {
            held &&= still;
          },
          () => {
            held = false; // unsure whether it still holds: stop rather than race a new holder
          },
        );
      }, LEASE_MS / 3);
      try {
        const state = await readUploadState(this.store, id);
        if (state === undefined) throw new UploadNotFoundError();
        return await work(state, lease, () => held);
      } finally {
        clearInterval(renewal);
        await releaseLease(this.store, id, lease).catch(() => {});
      }
    });
  }

  /** The bytes of the upload's tail (fewer than a part). */
  private async readTail(state: S3UploadState): Promise<Uint8Array> {
    if (state.tailSize === 0) return new Uint8Array(0);
    const stream = await this.bucket.get(this.layout.tail(state.id, state.size - state.tailSize), { start: 0, end: state.tailSize });
    if (stream === undefined) throw new UploadNotFoundError();
    const bytes = Buffer.concat(await stream.toArray());
    if (bytes.byteLength !== state.tailSize)
      throw new BlobStoreUnavailableError(`the tail of upload ${state.id} is ${bytes.byteLength} bytes, not ${state.tailSize}`);
    return bytes;
  }

  /**
   * The key holding the whole upload (undefined when empty): its tail object
   * when it has no parts, else the data key its multipart upload completes
   * into with the tail as the last part. A multipart upload found gone whose
   * data object is there whole was completed by a commit cut short: reused.
   */
  private async assemble(state: S3UploadState): Promise<string | undefined> {
    if (state.size === 0) return undefined;
    if (state.parts.length === 0) return this.layout.tail(state.id, 0);
    const key = this.layout.uploadData(state.id);
    const etags = state.parts.map((p) => p.etag);
    const mpu = state.multipartId!;
    let complete = true;
    if (state.tailSize > 0) {
      const last = await this.bucket.copyPart(key, mpu, etags.length + 1, this.layout.tail(state.id, state.size - state.tailSize), {
        start: 0,
        end: state.tailSize,
      });
      if (last === undefined) complete = false;
      else etags.push(last);
    }
    if (complete && (await this.bucket.complete(key, mpu, etags))) return key;
    if ((await this.bucket.head(key))?.size === state.size) return key;
    throw new UploadNotFoundError();
  }

  /** After a mismatch: the data object becomes the first part(s) of a new multipart upload (or the tail, when small), recorded. */
  private async reopen(state: S3UploadState, lease: string): Promise<void> {
    const key = this.layout.uploadData(state.id);
    let parts: S3Part[] = [];
    let multipartId: string | undefined;
    let tailSize = 0;
    if (state.size < MIN_PART_SIZE) {
      await this.bucket.copy(key, this.layout.tail(state.id, 0));
      tailSize = state.size;
    } else {
      multipartId = await this.bucket.createMultipart(key);
      parts = await copyParts(this.bucket, key, multipartId, key, state.size);
    }
    if (!(await recordUnderLease(this.store, state.id, lease, { size: state.size, multipartId, parts, tailSize }))) throw new UploadNotFoundError();
  }

  /** The hex digest of an object (or of no bytes), read back through. */
  private async digestOf(key: string | undefined, digest: Digest): Promise<string> {
    const hash = digester(digest.algorithm);
    if (key !== undefined) {
      const stream = await this.bucket.get(key);
      if (stream === undefined) throw new UploadNotFoundError();
      for await (const chunk of stream) hash.update(chunk as Uint8Array);
    }
    return hash.digest('hex');
  }

  /** Aborts the upload's multipart uploads and deletes its objects; true when there was any. */
  private async removeObjects(id: string): Promise<boolean> {
    let found = false;
    for await (const u of this.bucket.multipartUploads(this.layout.uploadPrefix(id))) {
      found = true;
      await this.bucket.abort(u.key, u.uploadId);
    }
    const keys: string[] = [];
    for await (const o of this.bucket.list(this.layout.uploadPrefix(id))) keys.push(o.key);
    await this.bucket.deleteMany(keys);
    return found || keys.length > 0;
  }
}

function note(found: Map<string, Date>, id: string | undefined, at: Date): void {
  if (id !== undefined && !found.has(id)) found.set(id, at);
}

function empty(): Readable {
  return Readable.from([]);
}

// The filesystem blob store: blobs and uploads as files under one root (the
// registry passes `<data dir>/registry`; layout in fs-blob-layout.ts).
// - An append writes at the upload's size, fsyncs, then records the new size
//   (upload-size-record.ts) before it resolves. Status reports the record, so
//   the bytes of an append still running, or cut short by a kill, never count;
//   on any failure (the client goes away, the limit, a full disk) the file is
//   truncated back to where the append began.
// - Commit checks the digest (from the sha256 state kept while appending, or
//   by reading the file back), then fsyncs and renames the file into blobs/
//   and fsyncs that directory: a blob appears whole or not at all. A digest
//   already stored is never replaced: the verified upload is discarded and
//   the stored blob's time renewed.
// - Work on one upload is serialized in this process (KeyedLock). One
//   process per root (blob-root-lock.ts, taken by the server): an append in
//   another process could hold the upload file open across this one's commit
//   and write into the committed blob. Several instances use the S3
//   driver. `berth registry gc` is the one other process on a root: it only
//   stats, lists and deletes committed blobs (atomic on a path) and cancels
//   uploads older than its upload grace; a commit whose upload it removed
//   meanwhile is UploadNotFoundError, one whose bytes it deleted just after
//   the rename or renewal is BlobCollectedError.
import type { Hash } from 'node:crypto';
import type { Dirent } from 'node:fs';
import { type FileHandle, mkdir, open, opendir, readFile, rename, rm, stat, unlink, utimes, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Readable, type Writable } from 'node:stream';
import { type Digest, type DigestAlgorithm, digester, parseDigest } from '../content/digest.js';
import {
  BlobCollectedError,
  type BlobInfo,
  type BlobStore,
  type ChunkOwnership,
  DigestMismatchError,
  type UploadInfo,
  UploadNotFoundError,
  UploadOffsetError,
} from './blob-store.js';
import { lockBlobRoot } from './blob-root-lock.js';
import { IO_BUFFER, writeChunk } from './chunk-writer.js';
import { makeDirs, syncDir } from './durable-dirs.js';
import { FsBlobLayout } from './fs-blob-layout.js';
import { KeyedLock } from './keyed-lock.js';
import { UploadHashes } from './upload-hashes.js';
import { isUploadId, newUploadId } from './upload-id.js';
import { readSizeRecord, writeSizeRecord } from './upload-size-record.js';
import { checkedRange } from './checked-range.js';
import { written } from './sink-write.js';

const ALGORITHMS: DigestAlgorithm[] = ['sha256', 'sha512'];

export class FsBlobStore implements BlobStore {
  private readonly layout: FsBlobLayout;
  private readonly locks = new KeyedLock();
  private readonly hashes = new UploadHashes();

  private release: () => void = () => {};

  private constructor(root: string) {
    this.layout = new FsBlobLayout(root);
  }

  /**
   * A store rooted at `root`, creating it (0700) and its two directories when
   * absent. `exclusive` (the server) takes the root's lock first, or throws
   * BlobRootInUseError; close() releases it.
   */
  static async open(root: string, opts: { exclusive?: boolean } = {}): Promise<FsBlobStore> {
    const store = new FsBlobStore(root);
    await makeDirs(root);
    if (opts.exclusive) store.release = lockBlobRoot(root);
    try {
      await makeDirs(store.layout.blobs);
      await makeDirs(store.layout.uploads);
    } catch (err) {
      store.release();
      throw err;
    }
    return store;
  }

  /** Releases the root's lock (when open() took it). */
  async close(): Promise<void> {
    this.release();
  }

  async stat(digest: Digest): Promise<BlobInfo | undefined> {
    const s = await absentIfMissing(stat(this.layout.blobFile(digest)));
    return s?.isFile() ? { digest: digest.text, size: s.size, modified: s.mtime } : undefined;
  }

  async read(digest: Digest, range?: { offset: number; end?: number }): Promise<Readable | undefined> {
    const { offset, end } = checkedRange(range);
    const file = await absentIfMissing(open(this.layout.blobFile(digest), 'r'));
    if (file === undefined) return undefined;
    try {
      const { size } = await file.stat();
      const stop = Math.min(end ?? size, size);
      if (offset >= stop) {
        await file.close();
        return new Readable({
          read() {
            this.push(null);
          },
        });
      }
      return file.createReadStream({ start: offset, end: stop - 1, highWaterMark: IO_BUFFER });
    } catch (err) {
      await file.close();
      throw err;
    }
  }

  async copyTo(digest: Digest, range: { offset: number; end?: number } | undefined, sink: Writable): Promise<boolean> {
    const { offset, end } = checkedRange(range);
    const file = await absentIfMissing(open(this.layout.blobFile(digest), 'r'));
    if (file === undefined) return false;
    try {
      const { size } = await file.stat();
      const stop = Math.min(end ?? size, size);
      // Two buffers: one is read into while the other is being written.
      const length = Math.min(IO_BUFFER, Math.max(stop - offset, 0));
      const buffers = [Buffer.allocUnsafeSlow(length), Buffer.allocUnsafeSlow(length)];
      const writes: Array<Promise<void> | undefined> = [undefined, undefined];
      for (let at = offset, i = 0; at < stop; i ^= 1) {
        await writes[i]; // the sink is done with this buffer
        const { bytesRead } = await file.read(buffers[i], 0, Math.min(length, stop - at), at);
        if (bytesRead === 0) throw new Error(`blob ${digest.text} shrank while being read`);
        at += bytesRead;
        writes[i] = written(sink, buffers[i].subarray(0, bytesRead));
        writes[i]!.catch(() => {}); // observed when awaited; not an unhandled rejection meanwhile
      }
      await Promise.all(writes);
      return true;
    } finally {
      await file.close();
    }
  }

  async delete(digest: Digest): Promise<boolean> {
    const file = this.layout.blobFile(digest);
    if ((await absentIfMissing(unlink(file).then(() => true))) === undefined) return false;
    await syncDir(this.layout.blobDir(digest));
    return true;
  }

  async *list(): AsyncIterable<BlobInfo> {
    for (const algorithm of ALGORITHMS) {
      const algDir = join(this.layout.blobs, algorithm);
      for await (const prefix of entries(algDir)) {
        if (!prefix.isDirectory() || !/^[0-9a-f]{2}$/.test(prefix.name)) continue;
        for await (const file of entries(join(algDir, prefix.name))) {
          const digest = parseDigest(`${algorithm}:${file.name}`);
          if (digest === undefined || !digest.hex.startsWith(prefix.name)) continue;
          const info = await this.stat(digest);
          if (info !== undefined) yield info;
        }
      }
    }
  }

  async createUpload(): Promise<UploadInfo> {
    const id = newUploadId();
    const dir = this.layout.uploadDir(id);
    const started = new Date();
    await mkdir(dir, { mode: 0o700 }); // EEXIST would mean 128 random bits repeated: refuse rather than share
    try {
      // started first: an upload exists once its data file does, and then it has a start time.
      await writeDurably(this.layout.uploadStarted(id), started.toISOString());
      await writeSizeRecord(this.layout.uploadSize(id), 0, true);
      await writeDurably(this.layout.uploadData(id), '');
      await syncDir(dir);
      await syncDir(this.layout.uploads);
    } catch (err) {
      await rm(dir, { recursive: true, force: true }).catch(() => {});
      throw err;
    }
    return { id, size: 0, started };
  }

  async upload(id: string): Promise<UploadInfo | undefined> {
    if (!isUploadId(id)) return undefined;
    const data = await absentIfMissing(stat(this.layout.uploadData(id)));
    if (data === undefined) return undefined;
    const recorded = await readSizeRecord(this.layout.uploadSize(id));
    return { id, size: Math.min(recorded ?? data.size, data.size), started: await this.started(id) };
  }

  async append(id: string, offset: number, data: Readable, limit = Number.MAX_SAFE_INTEGER, chunks: ChunkOwnership = 'borrowed'): Promise<UploadInfo> {
    if (!Number.isSafeInteger(offset) || offset < 0) throw new RangeError('invalid upload offset');
    if (!Number.isSafeInteger(limit) || limit < 0) throw new RangeError('invalid upload limit');
    return this.withUpload(id, async (file) => {
      const size = await this.durableSize(id, file);
      if (offset !== size) throw new UploadOffsetError(size);
      // Hash on the way only when the state covers every byte before this chunk.
      const hash = size === 0 ? digester('sha256') : this.hashes.get(id, size);
      const before = hash?.copy();
      try {
        const written = await writeChunk(data, file, offset, limit, hash, chunks);
        await file.sync();
        await writeSizeRecord(this.layout.uploadSize(id), offset + written); // acknowledged from here on
        if (hash !== undefined) this.hashes.set(id, hash, offset + written);
        return { id, size: offset + written, started: await this.started(id) };
      } catch (err) {
        await this.rollBack(id, file, offset, before);
        throw withPath(err, this.layout.uploadData(id)); // a write through a handle names no file; the log of a full disk should
      }
    });
  }

  async commit(id: string, digest: Digest): Promise<BlobInfo> {
    const target = this.layout.blobFile(digest); // checks the digest before anything is touched
    return this.withUpload(id, async (file) => {
      const size = await this.durableSize(id, file);
      const actual = await this.contentDigest(id, file, size, digest.algorithm);
      if (actual !== digest.hex) throw new DigestMismatchError(`${digest.algorithm}:${actual}`);
      // The blob's time is its commit time: gc's grace period starts now, also when identical bytes are stored already.
      const now = new Date();
      // One commit per digest at a time in this process: checking for the blob and renaming into place are one step.
      await this.locks.run(digest.text, async () => {
        if (await renewed(target, now)) return; // stored already: never replaced, this upload is discarded
        await file.utimes(now, now);
        await file.sync();
        await makeDirs(this.layout.blobDir(digest));
        // Gone since we opened it: cancelled from another process (gc clearing a stale upload). Nothing was committed.
        await rename(this.layout.uploadData(id), target).catch((err: NodeJS.ErrnoException) => {
          throw err.code === 'ENOENT' ? new UploadNotFoundError() : err;
        });
        await syncDir(this.layout.blobDir(digest));
      });
      this.hashes.delete(id);
      // Committed from here on. A cleanup that fails leaves a directory without data, which uploads() lists for gc.
      await this.removeUpload(id).catch(() => {});
      const info = await this.stat(digest);
      if (info === undefined) throw new BlobCollectedError(digest.text); // gc took the bytes it renewed, before this read them back
      return info;
    });
  }

  async cancel(id: string): Promise<boolean> {
    if (!isUploadId(id)) return false;
    return this.locks.run(id, async () => {
      this.hashes.delete(id);
      if ((await absentIfMissing(stat(this.layout.uploadDir(id)))) === undefined) return false;
      await this.removeUpload(id);
      return true;
    });
  }

  async *uploads(): AsyncIterable<UploadInfo> {
    for await (const entry of entries(this.layout.uploads)) {
      if (!entry.isDirectory() || !isUploadId(entry.name)) continue;
      const info = await this.upload(entry.name);
      // A directory without data is what a crash left of a commit (or a creation): listed with size 0 so gc clears it.
      yield info ?? { id: entry.name, size: 0, started: await this.started(entry.name) };
    }
  }

  /** Runs `work` on the upload's data file, opened once earlier work on the upload has finished. */
  private async withUpload<T>(id: string, work: (file: FileHandle) => Promise<T>): Promise<T> {
    if (!isUploadId(id)) throw new UploadNotFoundError();
    return this.locks.run(id, async () => {
      const file = await absentIfMissing(open(this.layout.uploadData(id), 'r+'));
      if (file === undefined) throw new UploadNotFoundError();
      try {
        return await work(file);
      } finally {
        await file.close();
      }
    });
  }

  /** The upload's acknowledged size; bytes past it (an append a kill cut short) are cut off the file first. */
  private async durableSize(id: string, file: FileHandle): Promise<number> {
    const { size } = await file.stat();
    const recorded = await readSizeRecord(this.layout.uploadSize(id));
    if (recorded === undefined || recorded === size) return size;
    if (recorded > size) {
      await writeSizeRecord(this.layout.uploadSize(id), size); // a record ahead of its file: only the file's bytes are there
      return size;
    }
    this.hashes.delete(id);
    await file.truncate(recorded);
    await file.sync();
    return recorded;
  }

  private async started(id: string): Promise<Date> {
    const text = await readFile(this.layout.uploadStarted(id), 'utf8').catch(() => '');
    const t = new Date(text.length <= 64 ? text : '');
    if (!Number.isNaN(t.getTime())) return t;
    // Unreadable (cut short by a crash): the directory's time is close enough for gc.
    return (await absentIfMissing(stat(this.layout.uploadDir(id))))?.mtime ?? new Date(0);
  }

  /** The upload's content digest (hex) by `algorithm`, from the kept sha256 state or by reading the file. */
  private async contentDigest(id: string, file: FileHandle, size: number, algorithm: DigestAlgorithm): Promise<string> {
    const kept = algorithm === 'sha256' ? this.hashes.get(id, size) : undefined;
    if (kept !== undefined) return kept.copy().digest('hex');
    const hash = digester(algorithm);
    const buffer = Buffer.allocUnsafe(Math.min(size, IO_BUFFER));
    for (let at = 0; at < size; ) {
      const { bytesRead } = await file.read(buffer, 0, Math.min(buffer.length, size - at), at);
      if (bytesRead === 0) throw new Error(`upload ${id} shrank while being hashed`);
      hash.update(buffer.subarray(0, bytesRead));
      at += bytesRead;
    }
    if (algorithm === 'sha256') this.hashes.set(id, hash.copy(), size); // a commit retried after a mismatch need not read again
    return hash.digest('hex');
  }

  /** Truncates a failed append away. If even that fails the file still holds a prefix of the client's bytes; only the hash state is dropped. */
  private async rollBack(id: string, file: FileHandle, offset: number, before: Hash | undefined): Promise<void> {
    try {
      await file.truncate(offset);
      await file.sync();
      if (before !== undefined) this.hashes.set(id, before, offset);
      else this.hashes.delete(id);
    } catch {
      this.hashes.delete(id);
    }
  }

  private async removeUpload(id: string): Promise<void> {
    await rm(this.layout.uploadDir(id), { recursive: true, force: true });
    await syncDir(this.layout.uploads);
  }
}

/** The value, or undefined when the path does not exist. */
async function absentIfMissing<T>(p: Promise<T>): Promise<T | undefined> {
  try {
    return await p;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw err;
  }
}

/** An errno error that names no file (a write through a handle) gets `path`, as Node's own errors carry it. */
function withPath(err: unknown, path: string): unknown {
  const e = err as { code?: unknown; path?: unknown } | null;
  if (e && typeof e === 'object' && typeof e.code === 'string' && e.path === undefined) e.path = path;
  return err;
}

/** Sets a stored blob's time to `now`; false when there is no blob at `path`. */
async function renewed(path: string, now: Date): Promise<boolean> {
  return (await absentIfMissing(utimes(path, now, now).then(() => true))) ?? false;
}

/** A directory's entries, none when it does not exist. */
async function* entries(dir: string): AsyncIterable<Dirent> {
  const handle = await absentIfMissing(opendir(dir, { bufferSize: 256 }));
  if (handle !== undefined) yield* handle;
}

async function writeDurably(path: string, text: string): Promise<void> {
  await writeFile(path, text, { mode: 0o600, flag: 'wx', flush: true });
}

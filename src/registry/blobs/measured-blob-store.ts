// A blob store timed into the process metrics (src/core/metrics.ts): every
// operation's duration by outcome, and the failures of the store itself. An
// answer about the client's request (an unknown upload, a wrong offset or
// digest, too many bytes) is the outcome "refused", not a store error. Wraps
// any driver, so every driver is measured the same way.
import type { Readable, Writable } from 'node:stream';
import type { Metrics } from '../../core/metrics.js';
import type { Digest } from '../content/digest.js';
import {
  BlobCollectedError,
  DigestMismatchError,
  UploadNotFoundError,
  UploadOffsetError,
  UploadTooLargeError,
  type BlobInfo,
  type BlobStore,
  type ChunkOwnership,
  type UploadInfo,
} from './blob-store.js';

const REFUSALS = [BlobCollectedError, DigestMismatchError, UploadNotFoundError, UploadOffsetError, UploadTooLargeError];

export class MeasuredBlobStore implements BlobStore {
  /** The driver's presigned pulls (--blob-redirect), when it has them. */
  readonly redirectUrl?: (digest: Digest) => Promise<string | undefined>;

  constructor(
    private readonly inner: BlobStore,
    private readonly m: Metrics,
  ) {
    const redirect = inner.redirectUrl?.bind(inner);
    if (redirect) this.redirectUrl = (digest) => this.timed('redirect', () => redirect(digest));
  }

  private async timed<T>(operation: string, run: () => Promise<T>): Promise<T> {
    const started = performance.now();
    try {
      const out = await run();
      this.m.blobDuration.observe({ operation, outcome: 'ok' }, (performance.now() - started) / 1000);
      return out;
    } catch (err) {
      const refused = REFUSALS.some((E) => err instanceof E);
      this.m.blobDuration.observe({ operation, outcome: refused ? 'refused' : 'error' }, (performance.now() - started) / 1000);
      if (!refused) this.m.blobErrors.inc({ operation });
      throw err;
    }
  }

  stat(digest: Digest): Promise<BlobInfo | undefined> {
    return this.timed('stat', () => this.inner.stat(digest));
  }
  read(digest: Digest, range?: { offset: number; end?: number }): Promise<Readable | undefined> {
    return this.timed('read', () => this.inner.read(digest, range));
  }
  copyTo(digest: Digest, range: { offset: number; end?: number } | undefined, sink: Writable): Promise<boolean> {
    return this.timed('copy', () => this.inner.copyTo(digest, range, sink));
  }
  delete(digest: Digest): Promise<boolean> {
    return this.timed('delete', () => this.inner.delete(digest));
  }
  list(): AsyncIterable<BlobInfo> {
    return this.inner.list();
  }
  createUpload(): Promise<UploadInfo> {
    return this.timed('create_upload', () => this.inner.createUpload());
  }
  upload(id: string): Promise<UploadInfo | undefined> {
    return this.timed('upload_stat', () => this.inner.upload(id));
  }
  append(id: string, offset: number, data: Readable, limit?: number, chunks?: ChunkOwnership): Promise<UploadInfo> {
    return this.timed('append', () => this.inner.append(id, offset, data, limit, chunks));
  }
  commit(id: string, digest: Digest): Promise<BlobInfo> {
    return this.timed('commit', () => this.inner.commit(id, digest));
  }
  cancel(id: string): Promise<boolean> {
    return this.timed('cancel', () => this.inner.cancel(id));
  }
  uploads(): AsyncIterable<UploadInfo> {
    return this.inner.uploads();
  }
}

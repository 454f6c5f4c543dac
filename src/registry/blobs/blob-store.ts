// Where blob bytes live. A driver keeps content addressed by digest and
// uploads in progress; the registry's database says which repos may see a
// blob. Every driver passes the same suite (test/registry/blob-store-suite.ts).
// Upload ids come back from URLs: a driver checks each one against the form
// it makes (see upload-id.ts) and treats anything else as no upload at all.
import type { Readable, Writable } from 'node:stream';
import type { Digest } from '../content/digest.js';

export interface BlobInfo {
  digest: string;
  size: number;
  /** When the blob was last committed (for gc's grace period): committing identical content again renews it. */
  modified: Date;
}

/** Whether the chunks of an appended stream are the driver's to free once written (a request body straight off its socket) or still someone else's. */
export type ChunkOwnership = 'owned' | 'borrowed';

export interface UploadInfo {
  id: string;
  /** Bytes received so far; the next chunk must start here. */
  size: number;
  started: Date;
}

export interface BlobStore {
  /** Size and time of a committed blob, or undefined. */
  stat(digest: Digest): Promise<BlobInfo | undefined>;
  /**
   * The bytes of a committed blob from `offset` (inclusive) to `end`
   * (exclusive, default the end); undefined when absent. Both are clamped to
   * the blob's size (an empty stream past the end); a negative, fractional or
   * reversed range is a RangeError.
   */
  read(digest: Digest, range?: { offset: number; end?: number }): Promise<Readable | undefined>;
  /**
   * Writes the same bytes as read() to `sink` (not ended), each write awaited
   * through its callback; false when the blob is absent (nothing written).
   * Rejects when reading or writing fails part way. For serving pulls: the
   * filesystem driver reuses two buffers for the whole blob, where a stream
   * allocates one per read — a gigabyte pulled was a gigabyte of garbage,
   * and collecting it was much of the pull's CPU (docs/performance.md).
   */
  copyTo(digest: Digest, range: { offset: number; end?: number } | undefined, sink: Writable): Promise<boolean>;
  /** Removes a committed blob; false when it was not there. */
  delete(digest: Digest): Promise<boolean>;
  /** Every committed blob (for gc). */
  list(): AsyncIterable<BlobInfo>;

  /** Starts an empty upload with a new id. */
  createUpload(): Promise<UploadInfo>;
  /** An upload in progress, or undefined (unknown, committed or cancelled). Survives a restart. */
  upload(id: string): Promise<UploadInfo | undefined>;
  /**
   * Appends a stream at `offset`, which must equal the upload's size (else
   * UploadOffsetError, nothing written). `limit` bounds the bytes taken from
   * the stream (UploadTooLargeError beyond it). Resolves to the new size.
   * Bytes are durable once this resolves. On failure (the stream errors, the
   * limit, a full disk) the upload keeps a consistent size the client can
   * resume from (its bytes a prefix of what was sent; the filesystem driver
   * keeps none of the failed append). `data` is never destroyed here: after
   * a refusal the caller still owns it and its connection. Appends to one
   * upload run one after another; an unknown id is UploadNotFoundError.
   * `chunks: 'owned'` says no one else holds `data`'s chunks (a request body
   * off its socket): a driver may free each one once it is written.
   */
  append(id: string, offset: number, data: Readable, limit?: number, chunks?: ChunkOwnership): Promise<UploadInfo>;
  /**
   * Verifies the upload's content has `digest` (DigestMismatchError otherwise;
   * the upload stays as it was) and makes it the committed blob atomically:
   * a crash never leaves a partial blob visible. Committing content that is
   * already stored (a concurrent upload of the same blob) succeeds. Bytes
   * that `berth registry gc` deleted as they were committed (it saw an old
   * stored copy and removed it after this commit renewed it) are
   * BlobCollectedError: the upload is spent, the client pushes again.
   */
  commit(id: string, digest: Digest): Promise<BlobInfo>;
  /** Drops an upload and its bytes; false when it was not there. */
  cancel(id: string): Promise<boolean>;
  /**
   * Every upload in progress (for gc), and what a crash left of one whose
   * commit or creation was cut short (size 0, unknown to upload()): cancel
   * clears either.
   */
  uploads(): AsyncIterable<UploadInfo>;
  /**
   * Where a client may fetch the committed blob's bytes itself (a presigned
   * URL, for `--blob-redirect`), or undefined: then the bytes go through
   * Berth. Only object-store drivers answer one.
   */
  redirectUrl?(digest: Digest): Promise<string | undefined>;
}

/**
 * The blob store cannot be reached or keeps failing (an object store down,
 * throttling past its retries): the request is answered 503 with
 * Retry-After, and nothing acknowledged was lost.
 */
export class BlobStoreUnavailableError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'BlobStoreUnavailableError';
  }
}

/** The blob's bytes were garbage-collected while it was being committed or linked: nothing was linked; the client must push it again. */
export class BlobCollectedError extends Error {
  constructor(readonly digest: string) {
    super(`blob ${digest} was garbage-collected as it was being stored`);
  }
}

export class UploadNotFoundError extends Error {
  constructor() {
    super('no such upload');
  }
}
export class UploadOffsetError extends Error {
  constructor(readonly expected: number) {
    super(`upload is at offset ${expected}`);
  }
}
export class UploadTooLargeError extends Error {}
export class DigestMismatchError extends Error {
  constructor(readonly actual: string) {
    super(`content digest is ${actual}`);
  }
}

// Where blob bytes live. A driver keeps content addressed by digest and
// uploads in progress; the registry's database says which repos may see a
// blob. Every driver passes the same suite (test/registry/blob-store-suite.ts).
import type { Readable } from 'node:stream';
import type { Digest } from '../content/digest.js';

export interface BlobInfo {
  digest: string;
  size: number;
  /** When the blob was committed (for gc's grace period). */
  modified: Date;
}

export interface UploadInfo {
  id: string;
  /** Bytes received so far; the next chunk must start here. */
  size: number;
  started: Date;
}

export interface BlobStore {
  /** Size and time of a committed blob, or undefined. */
  stat(digest: Digest): Promise<BlobInfo | undefined>;
  /** The bytes of a committed blob from `offset` (inclusive) to `end` (exclusive, default the end); undefined when absent. */
  read(digest: Digest, range?: { offset: number; end?: number }): Promise<Readable | undefined>;
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
   * Bytes are durable once this resolves.
   */
  append(id: string, offset: number, data: Readable, limit?: number): Promise<UploadInfo>;
  /**
   * Verifies the upload's content has `digest` (DigestMismatchError otherwise;
   * the upload stays as it was) and makes it the committed blob atomically:
   * a crash never leaves a partial blob visible. Committing content that is
   * already stored (a concurrent upload of the same blob) succeeds.
   */
  commit(id: string, digest: Digest): Promise<BlobInfo>;
  /** Drops an upload and its bytes; false when it was not there. */
  cancel(id: string): Promise<boolean>;
  /** Every upload in progress (for gc). */
  uploads(): AsyncIterable<UploadInfo>;
}

export class UploadNotFoundError extends Error {}
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

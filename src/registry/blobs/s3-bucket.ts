// The S3 calls the blob driver makes, on one bucket, through
// @aws-sdk/client-s3: credentials from the SDK's default chain (environment,
// shared files, web identity, instance roles), throttling (503 SlowDown) and
// network failures retried by the SDK's standard mode with backoff. What
// still fails for want of the store (unreachable, 5xx, throttled past the
// retries, credentials refused) becomes BlobStoreUnavailableError: the
// registry answers 503 with Retry-After. "No such key/upload" is undefined
// or UploadNotFoundError where the driver expects it.
import type { Readable } from 'node:stream';
import {
  AbortMultipartUploadCommand,
  CompleteMultipartUploadCommand,
  CopyObjectCommand,
  CreateMultipartUploadCommand,
  DeleteObjectCommand,
  DeleteObjectsCommand,
  GetObjectCommand,
  HeadObjectCommand,
  ListMultipartUploadsCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  S3Client,
  UploadPartCommand,
  UploadPartCopyCommand,
} from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { BlobStoreUnavailableError } from './blob-store.js';

export interface S3Options {
  /** An S3-compatible endpoint (https://…); AWS's own for the region when absent. */
  endpoint?: string;
  region?: string;
  /** bucket in the path (http://host/bucket/key) rather than the host name. */
  pathStyle?: boolean;
  /** Attempts per call, the first included (throttling and network failures retried with backoff). */
  maxAttempts?: number;
}

export interface ObjectHead {
  size: number;
  modified: Date;
}

/** Statuses and codes that say "not there": answered as absence, not as failure. */
function isMissing(err: unknown): boolean {
  const e = err as { name?: string; $metadata?: { httpStatusCode?: number } };
  return e?.name === 'NoSuchKey' || e?.name === 'NotFound' || e?.name === 'NoSuchUpload' || e?.$metadata?.httpStatusCode === 404;
}

/** The store could not do it for reasons of its own (not the request's): unreachable, 5xx, throttled, credentials refused. */
export function isStoreFailure(err: unknown): boolean {
  if (err instanceof BlobStoreUnavailableError) return true;
  const e = err as { $metadata?: { httpStatusCode?: number }; name?: string; code?: string };
  const status = e?.$metadata?.httpStatusCode;
  if (status === undefined) return true; // no answer at all: connection refused, reset, timed out, DNS
  return status >= 500 || status === 403 || status === 429 || e.name === 'SlowDown';
}

export class S3Bucket {
  readonly client: S3Client;

  constructor(
    readonly bucket: string,
    opts: S3Options,
  ) {
    this.client = new S3Client({
      endpoint: opts.endpoint,
      region: opts.region ?? process.env.AWS_REGION ?? process.env.AWS_DEFAULT_REGION ?? 'us-east-1',
      forcePathStyle: opts.pathStyle ?? false,
      maxAttempts: opts.maxAttempts ?? 5,
      retryMode: 'standard',
      // Only the checksums S3 requires: many S3-compatible stores reject the newer default ones.
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
      requestHandler: { connectionTimeout: 5_000, requestTimeout: 120_000 },
    });
  }

  close(): void {
    this.client.destroy();
  }

  /** Runs one call; a store failure becomes BlobStoreUnavailableError. */
  private async call<T>(what: string, work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (err) {
      if (!isMissing(err) && isStoreFailure(err)) throw new BlobStoreUnavailableError(`the object store failed to ${what}`, { cause: err });
      throw err;
    }
  }

  /** Runs a call whose "not there" answer is undefined. */
  private async absentIfMissing<T>(what: string, work: () => Promise<T>): Promise<T | undefined> {
    try {
      return await this.call(what, work);
    } catch (err) {
      if (isMissing(err)) return undefined;
      throw err;
    }
  }

  head(key: string): Promise<ObjectHead | undefined> {
    return this.absentIfMissing('stat an object', async () => {
      const r = await this.client.send(new HeadObjectCommand({ Bucket: this.bucket, Key: key }));
      return { size: r.ContentLength ?? 0, modified: r.LastModified ?? new Date(0) };
    });
  }

  /** The object's bytes [start, end) (end exclusive); undefined when absent; an empty stream for a range past its end. */
  get(key: string, range?: { start: number; end?: number }): Promise<Readable | undefined> {
    const header = range === undefined ? undefined : `bytes=${range.start}-${range.end === undefined ? '' : range.end - 1}`;
    return this.absentIfMissing('read an object', async () => {
      const r = await this.client.send(new GetObjectCommand({ Bucket: this.bucket, Key: key, Range: header }));
      return r.Body as Readable;
    });
  }

  async put(key: string, body: Uint8Array): Promise<void> {
    await this.call('write an object', () => this.client.send(new PutObjectCommand({ Bucket: this.bucket, Key: key, Body: body })));
  }

  /** Copies `from` onto `to` in the bucket (one request, at most 5 GiB). Copying an object onto itself renews its time. */
  async copy(from: string, to: string): Promise<void> {
    await this.call('copy an object', () =>
      this.client.send(
        new CopyObjectCommand({
          Bucket: this.bucket,
          Key: to,
          CopySource: `${this.bucket}/${encodeKey(from)}`,
          ...(from === to ? { MetadataDirective: 'REPLACE' as const, Metadata: { renewed: new Date().toISOString() } } : {}),
        }),
      ),
    );
  }

  async delete(key: string): Promise<void> {
    await this.call('delete an object', () => this.client.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: key })));
  }

  /** Deletes up to 1000 keys in one request. */
  async deleteMany(keys: string[]): Promise<void> {
    if (keys.length === 0) return;
    const r = await this.call('delete objects', () =>
      this.client.send(new DeleteObjectsCommand({ Bucket: this.bucket, Delete: { Objects: keys.map((Key) => ({ Key })), Quiet: true } })),
    );
    const failed = (r.Errors ?? []).filter((e) => e.Code !== 'NoSuchKey');
    if (failed.length > 0) throw new BlobStoreUnavailableError(`the object store did not delete ${failed.length} objects (${failed[0].Code})`);
  }

  /** Every object under `prefix`, a page (up to 1000) at a time. */
  async *list(prefix: string): AsyncIterable<{ key: string; size: number; modified: Date }> {
    for (let token: string | undefined; ; ) {
      const r = await this.call('list objects', () =>
        this.client.send(new ListObjectsV2Command({ Bucket: this.bucket, Prefix: prefix, ContinuationToken: token })),
      );
      for (const o of r.Contents ?? []) if (o.Key !== undefined) yield { key: o.Key, size: o.Size ?? 0, modified: o.LastModified ?? new Date(0) };
      if (!r.IsTruncated || r.NextContinuationToken === undefined) return;
      token = r.NextContinuationToken;
    }
  }

  async createMultipart(key: string): Promise<string> {
    const r = await this.call('start a multipart upload', () => this.client.send(new CreateMultipartUploadCommand({ Bucket: this.bucket, Key: key })));
    if (r.UploadId === undefined) throw new BlobStoreUnavailableError('the object store started a multipart upload without an id');
    return r.UploadId;
  }

  /** Uploads part `n`; resolves to its ETag. Undefined when the multipart upload is gone. */
  uploadPart(key: string, uploadId: string, n: number, body: Uint8Array): Promise<string | undefined> {
    return this.absentIfMissing('upload a part', async () => {
      const r = await this.client.send(new UploadPartCommand({ Bucket: this.bucket, Key: key, UploadId: uploadId, PartNumber: n, Body: body }));
      return r.ETag ?? '';
    });
  }

  /** Part `n` copied from an object (or a byte range of it); undefined when either is gone. */
  copyPart(key: string, uploadId: string, n: number, from: string, range?: { start: number; end: number }): Promise<string | undefined> {
    return this.absentIfMissing('copy a part', async () => {
      const r = await this.client.send(
        new UploadPartCopyCommand({
          Bucket: this.bucket,
          Key: key,
          UploadId: uploadId,
          PartNumber: n,
          CopySource: `${this.bucket}/${encodeKey(from)}`,
          CopySourceRange: range === undefined ? undefined : `bytes=${range.start}-${range.end - 1}`,
        }),
      );
      return r.CopyPartResult?.ETag ?? '';
    });
  }

  /** Completes the multipart upload into `key`; false when it is gone. */
  async complete(key: string, uploadId: string, etags: string[]): Promise<boolean> {
    const done = await this.absentIfMissing('complete a multipart upload', () =>
      this.client.send(
        new CompleteMultipartUploadCommand({
          Bucket: this.bucket,
          Key: key,
          UploadId: uploadId,
          MultipartUpload: { Parts: etags.map((ETag, i) => ({ ETag, PartNumber: i + 1 })) },
        }),
      ),
    );
    return done !== undefined;
  }

  async abort(key: string, uploadId: string): Promise<void> {
    await this.absentIfMissing('abort a multipart upload', () =>
      this.client.send(new AbortMultipartUploadCommand({ Bucket: this.bucket, Key: key, UploadId: uploadId })),
    );
  }

  /** Every multipart upload in progress under `prefix`. */
  async *multipartUploads(prefix: string): AsyncIterable<{ key: string; uploadId: string; started: Date }> {
    for (let keyMarker: string | undefined, idMarker: string | undefined; ; ) {
      const r = await this.call('list multipart uploads', () =>
        this.client.send(new ListMultipartUploadsCommand({ Bucket: this.bucket, Prefix: prefix, KeyMarker: keyMarker, UploadIdMarker: idMarker })),
      );
      for (const u of r.Uploads ?? []) {
        if (u.Key !== undefined && u.UploadId !== undefined) yield { key: u.Key, uploadId: u.UploadId, started: u.Initiated ?? new Date(0) };
      }
      if (!r.IsTruncated) return;
      keyMarker = r.NextKeyMarker;
      idMarker = r.NextUploadIdMarker;
    }
  }

  /** A URL that GETs the object for `seconds`, signed with the current credentials. */
  presignGet(key: string, seconds: number): Promise<string> {
    return this.call('sign a URL', () => getSignedUrl(this.client, new GetObjectCommand({ Bucket: this.bucket, Key: key }), { expiresIn: seconds }));
  }
}

/** A key as it goes in x-amz-copy-source: each segment URL-encoded, the slashes kept. */
function encodeKey(key: string): string {
  return key.split('/').map(encodeURIComponent).join('/');
}

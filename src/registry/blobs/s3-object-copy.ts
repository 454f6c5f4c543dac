// Server-side copies within the bucket: the bytes never pass through Berth.
// One CopyObject (or one part copy) moves at most 5 GiB, so anything larger
// is copied as a multipart upload of ranges.
import { BlobStoreUnavailableError, UploadNotFoundError } from './blob-store.js';
import type { S3Bucket } from './s3-bucket.js';
import type { S3Part } from './s3-upload-state.js';

/** The largest object one CopyObject (or one part copy) may copy. */
const MAX_COPY = 5 * 1024 * 1024 * 1024;

/** Copies `from` (of `size` bytes) as parts 1… of multipart upload `mpu` on `to`, in even parts of at most 5 GiB (each at least 5 MiB when size is). */
export async function copyParts(bucket: S3Bucket, to: string, mpu: string, from: string, size: number): Promise<S3Part[]> {
  const n = Math.ceil(size / MAX_COPY);
  const parts: S3Part[] = [];
  for (let i = 0; i < n; i++) {
    const start = Math.floor((size * i) / n);
    const end = Math.floor((size * (i + 1)) / n);
    const etag = await bucket.copyPart(to, mpu, i + 1, from, n === 1 ? undefined : { start, end });
    if (etag === undefined) throw new UploadNotFoundError();
    parts.push({ etag, size: end - start });
  }
  return parts;
}

/** Copies an object of `size` bytes within the bucket (onto itself too: that renews its time): one request up to 5 GiB, a multipart copy above. */
export async function copyObject(bucket: S3Bucket, from: string, to: string, size: number): Promise<void> {
  if (size <= MAX_COPY) return bucket.copy(from, to);
  const mpu = await bucket.createMultipart(to);
  const parts = await copyParts(bucket, to, mpu, from, size);
  if (
    !(await bucket.complete(
      to,
      mpu,
      parts.map((p) => p.etag),
    ))
  )
    throw new BlobStoreUnavailableError(`the copy of ${from} did not complete`);
}

// The S3 driver's upload state (migration 0032). One row per upload in
// progress: the acknowledged size, the S3 multipart upload holding its full
// parts (each `partSize` bytes but the last committed one), and the size of
// the tail object holding the bytes after them (under the minimum part size).
// `lease` marks an append running on some instance, until `lease_until`.

export interface S3UploadsTable {
  id: string;
  /** The bucket and prefix of the store the upload is in (bucket/prefix/): gc lists only its own. */
  location: string;
  /** ISO 8601. */
  started: string;
  size: number | string;
  multipart_id: string | null;
  /** JSON: the ETag and size of parts 1…n, in order. */
  parts: string;
  tail_size: number | string;
  lease: string | null;
  /** ISO 8601. */
  lease_until: string | null;
}

declare module '../../store/database.js' {
  interface Database {
    s3_uploads: S3UploadsTable;
  }
}

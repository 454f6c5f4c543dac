// Which blob store a process uses: the filesystem under its --data (the
// default) or an S3-compatible bucket (`--blob-store s3://BUCKET/PREFIX`).
// The filesystem store is opened before the database (a second server on
// the same --data stops there); the S3 store keeps its upload state in the
// database, so it is opened after it. The S3 driver and the AWS SDK are
// loaded only when a bucket is named: a server on the filesystem never pays
// for them.
import type { Store } from '../../store/store.js';
import type { BlobStore } from './blob-store.js';
import { registryBlobRoot } from './fs-blob-layout.js';
import { FsBlobStore } from './fs-blob-store.js';
import type { S3Options } from './s3-bucket.js';
import { parseS3Url, type S3Location } from './s3-layout.js';

export type BlobStoreSpec =
  | { kind: 'filesystem' }
  | { kind: 's3'; location: S3Location; s3: S3Options /** Presigned-URL lifetime for `--blob-redirect`. */; redirectSeconds?: number };

export type ClosableBlobStore = BlobStore & { close(): Promise<void> };

/** The spec the flags describe; throws with the flag's name when one is malformed. */
export function blobStoreSpec(flags: {
  blobStore?: string;
  s3Endpoint?: string;
  s3Region?: string;
  s3PathStyle?: boolean;
  blobRedirect?: boolean;
}): BlobStoreSpec {
  const s3Only = flags.s3Endpoint !== undefined || flags.s3Region !== undefined || flags.s3PathStyle || flags.blobRedirect;
  if (flags.blobStore === undefined || flags.blobStore === 'filesystem') {
    if (s3Only) throw new Error('--s3-endpoint, --s3-region, --s3-path-style and --blob-redirect need --blob-store s3://BUCKET/PREFIX');
    return { kind: 'filesystem' };
  }
  const location = parseS3Url(flags.blobStore);
  if (typeof location === 'string') throw new Error(location);
  if (flags.s3Endpoint !== undefined && !/^https?:\/\/[^/\s]+\/?$/.test(flags.s3Endpoint))
    throw new Error(`--s3-endpoint must be http(s)://HOST[:PORT], got ${JSON.stringify(flags.s3Endpoint)}`);
  return {
    kind: 's3',
    location,
    s3: { endpoint: flags.s3Endpoint, region: flags.s3Region, pathStyle: flags.s3PathStyle ?? false },
    redirectSeconds: flags.blobRedirect ? 600 : undefined,
  };
}

/** Opens the filesystem store (before the database; `exclusive` for the server). */
export async function openFsBlobStore(spec: BlobStoreSpec, dataDir: string, exclusive: boolean): Promise<ClosableBlobStore | undefined> {
  return spec.kind === 'filesystem' ? FsBlobStore.open(registryBlobRoot(dataDir), { exclusive }) : undefined;
}

/** Opens the S3 store over the open database. */
export async function openS3BlobStore(spec: BlobStoreSpec & { kind: 's3' }, store: Store): Promise<ClosableBlobStore> {
  const [{ S3BlobStore }, { S3Bucket }, { S3Layout }] = await Promise.all([import('./s3-blob-store.js'), import('./s3-bucket.js'), import('./s3-layout.js')]);
  return new S3BlobStore(new S3Bucket(spec.location.bucket, spec.s3), new S3Layout(spec.location), store, { redirectSeconds: spec.redirectSeconds });
}

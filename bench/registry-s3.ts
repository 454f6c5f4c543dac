// The S3 side of bench/registry.ts (`--s3 http://KEY:SECRET@HOST:PORT/BUCKET`):
// both registries store blobs in that one bucket of an S3-compatible store
// (Ceph RGW here), each run under key prefixes of its own, emptied after it.
// Berth gets `--blob-store s3://BUCKET/PREFIX --s3-endpoint --s3-path-style`
// and the keys through the SDK's default chain (environment); distribution
// its `s3` storage driver with the same endpoint (path-style: distribution
// 2.8 addresses the bucket in the path whenever `regionendpoint` is set).
import { randomBytes } from 'node:crypto';
import {
  AbortMultipartUploadCommand,
  CreateBucketCommand,
  DeleteObjectsCommand,
  ListMultipartUploadsCommand,
  ListObjectsV2Command,
  S3Client,
} from '@aws-sdk/client-s3';

export interface BenchBucket {
  endpoint: string;
  bucket: string;
  accessKey: string;
  secretKey: string;
  region: string;
}

/** Parses the --s3 URL and creates the bucket when missing. */
export async function benchBucket(text: string): Promise<BenchBucket> {
  const u = new URL(text);
  const bucket = u.pathname.replace(/^\/+|\/+$/g, '');
  if (!/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/.test(bucket)) throw new Error(`--s3: ${JSON.stringify(bucket)} is not a bucket name`);
  if (!u.username || !u.password) throw new Error('--s3 needs the keys: http://ACCESS_KEY:SECRET_KEY@HOST:PORT/BUCKET');
  const b: BenchBucket = {
    endpoint: `${u.protocol}//${u.host}`,
    bucket,
    accessKey: decodeURIComponent(u.username),
    secretKey: decodeURIComponent(u.password),
    region: 'us-east-1',
  };
  const client = clientOf(b);
  try {
    await client.send(new CreateBucketCommand({ Bucket: bucket }));
  } catch (err) {
    const name = (err as { name?: string }).name;
    if (name !== 'BucketAlreadyOwnedByYou' && name !== 'BucketAlreadyExists') throw err;
  } finally {
    client.destroy();
  }
  return b;
}

function clientOf(b: BenchBucket): S3Client {
  return new S3Client({
    endpoint: b.endpoint,
    region: b.region,
    forcePathStyle: true,
    credentials: { accessKeyId: b.accessKey, secretAccessKey: b.secretKey },
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  });
}

/** A key prefix no other run uses. */
export function benchPrefix(who: string): string {
  return `bench-${who}-${randomBytes(5).toString('hex')}`;
}

/** Berth's flags and environment for the bucket under `prefix`. */
export function berthS3(b: BenchBucket, prefix: string): { args: string[]; env: NodeJS.ProcessEnv } {
  return {
    args: ['--blob-store', `s3://${b.bucket}/${prefix}`, '--s3-endpoint', b.endpoint, '--s3-region', b.region, '--s3-path-style'],
    // Only these AWS_* variables: no profile or CA bundle of the bench's own environment.
    env: { ...withoutAws(process.env), AWS_ACCESS_KEY_ID: b.accessKey, AWS_SECRET_ACCESS_KEY: b.secretKey },
  };
}

function withoutAws(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  return Object.fromEntries(Object.entries(env).filter(([k]) => !k.startsWith('AWS_')));
}

/**
 * distribution's `storage:` section for the bucket under `prefix`: its S3
 * driver at its default chunk size (10 MiB, Berth's part size too), and no
 * redirect, so pulled bytes pass through it as through Berth.
 */
export function distributionS3(b: BenchBucket, prefix: string): string[] {
  return [
    'storage:',
    '  cache:',
    '    blobdescriptor: inmemory',
    '  s3:',
    `    accesskey: ${JSON.stringify(b.accessKey)}`,
    `    secretkey: ${JSON.stringify(b.secretKey)}`,
    `    region: ${b.region}`,
    `    regionendpoint: ${b.endpoint}`,
    `    bucket: ${b.bucket}`,
    `    secure: ${b.endpoint.startsWith('https:')}`,
    '    v4auth: true',
    `    rootdirectory: /${prefix}`,
    '  redirect:',
    '    disable: true',
    '  delete:',
    '    enabled: true',
  ];
}

/** Deletes every object and aborts every multipart upload under `prefix`. */
export async function emptyPrefix(b: BenchBucket, prefix: string): Promise<void> {
  const client = clientOf(b);
  try {
    for (;;) {
      const r = await client.send(new ListMultipartUploadsCommand({ Bucket: b.bucket, Prefix: prefix }));
      const uploads = r.Uploads ?? [];
      for (const u of uploads) await client.send(new AbortMultipartUploadCommand({ Bucket: b.bucket, Key: u.Key, UploadId: u.UploadId }));
      if (uploads.length === 0 || !r.IsTruncated) break;
    }
    for (;;) {
      const r = await client.send(new ListObjectsV2Command({ Bucket: b.bucket, Prefix: prefix }));
      const keys = (r.Contents ?? []).map((o) => ({ Key: o.Key! }));
      if (keys.length === 0) return;
      await client.send(new DeleteObjectsCommand({ Bucket: b.bucket, Delete: { Objects: keys, Quiet: true } }));
    }
  } finally {
    client.destroy();
  }
}

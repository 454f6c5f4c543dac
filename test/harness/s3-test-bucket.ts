// The real S3-compatible store the S3 tests run against: BERTH_TEST_S3 is
// http://ACCESS_KEY:SECRET_KEY@HOST:PORT/BUCKET (path-style), as .ci/run
// exports it after starting Ceph RGW (scripts/ceph-rgw.sh). Unset outside CI,
// the S3 tests skip saying so; unset in CI, they fail: no fake S3 servers.
import { randomBytes } from 'node:crypto';
import {
  AbortMultipartUploadCommand,
  CreateBucketCommand,
  DeleteObjectsCommand,
  ListMultipartUploadsCommand,
  ListObjectsV2Command,
  S3Client,
} from '@aws-sdk/client-s3';

export interface TestBucket {
  endpoint: string;
  bucket: string;
  accessKey: string;
  secretKey: string;
  region: string;
  /** The environment a process needs to reach the bucket through the SDK's default credential chain. */
  env: NodeJS.ProcessEnv;
}

const MISSING =
  'BERTH_TEST_S3 is unset: the S3 tests need a real object store (bash scripts/ceph-rgw.sh DIR 7480, then BERTH_TEST_S3=http://KEY:SECRET@127.0.0.1:7480/berth-test)';

/** The bucket (created when missing), or a reason to skip; throws in CI when unset. */
export async function testBucket(): Promise<TestBucket | string> {
  const text = process.env.BERTH_TEST_S3;
  if (!text) {
    if (process.env.CI) throw new Error(`${MISSING}; in CI it must be set`);
    return MISSING;
  }
  return openBucket(text, 'BERTH_TEST_S3');
}

/**
 * The bucket named by `text`, http://ACCESS_KEY:SECRET_KEY@HOST:PORT/BUCKET,
 * created when missing (tests and bench/registry-s3.ts); `what` names the
 * setting in errors.
 */
export async function openBucket(text: string, what: string): Promise<TestBucket> {
  const u = new URL(text);
  const bucket = u.pathname.replace(/^\/+|\/+$/g, '');
  if (!/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/.test(bucket)) throw new Error(`${what}: ${JSON.stringify(bucket)} is not a bucket name`);
  if (!u.username || !u.password) throw new Error(`${what} needs the keys: http://ACCESS_KEY:SECRET_KEY@HOST:PORT/BUCKET`);
  const accessKey = decodeURIComponent(u.username);
  const secretKey = decodeURIComponent(u.password);
  const region = 'us-east-1';
  const b: TestBucket = {
    endpoint: `${u.protocol}//${u.host}`,
    bucket,
    accessKey,
    secretKey,
    region,
    env: { AWS_ACCESS_KEY_ID: accessKey, AWS_SECRET_ACCESS_KEY: secretKey, AWS_REGION: region },
  };
  const client = clientOf(b);
  try {
    // A store that accepts connections but never answers (a full Ceph OSD) fails the test, not hangs it.
    await client.send(new CreateBucketCommand({ Bucket: bucket }), { abortSignal: AbortSignal.timeout(30_000) });
  } catch (err) {
    const name = (err as { name?: string }).name;
    if (name !== 'BucketAlreadyOwnedByYou' && name !== 'BucketAlreadyExists') throw err;
  } finally {
    client.destroy();
  }
  return b;
}

export function clientOf(b: TestBucket): S3Client {
  return new S3Client({
    endpoint: b.endpoint,
    region: b.region,
    forcePathStyle: true,
    credentials: { accessKeyId: b.accessKey, secretAccessKey: b.secretKey },
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  });
}

/** A prefix of its own for one test. */
export function freshPrefix(): string {
  return `t-${randomBytes(6).toString('hex')}`;
}

/** The keys under `prefix` (up to a page of 1000: tests keep fewer). */
export async function keysUnder(b: TestBucket, prefix: string): Promise<string[]> {
  const client = clientOf(b);
  try {
    const r = await client.send(new ListObjectsV2Command({ Bucket: b.bucket, Prefix: prefix }));
    return (r.Contents ?? []).map((o) => o.Key!).sort();
  } finally {
    client.destroy();
  }
}

/** Deletes what a test or bench run left under `prefix`: its objects and its unfinished multipart uploads. */
export async function emptyPrefix(b: TestBucket, prefix: string): Promise<void> {
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

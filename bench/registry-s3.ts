// The S3 side of bench/registry.ts (`--s3 http://KEY:SECRET@HOST:PORT/BUCKET`):
// both registries store blobs in that one bucket of an S3-compatible store
// (Ceph RGW here), each run under key prefixes of its own, emptied after it.
// Berth gets `--blob-store s3://BUCKET/PREFIX --s3-endpoint --s3-path-style`
// and the keys through the SDK's default chain (environment); distribution
// its `s3` storage driver with the same endpoint (path-style: distribution
// 2.8 addresses the bucket in the path whenever `regionendpoint` is set).
import { randomBytes } from 'node:crypto';
import { openBucket, type TestBucket } from '../test/harness/s3-test-bucket.js';

/** The bucket, as the S3 tests reach theirs (test/harness/s3-test-bucket.ts). */
export type BenchBucket = TestBucket;

/** Parses the --s3 URL and creates the bucket when missing. */
export function benchBucket(text: string): Promise<BenchBucket> {
  return openBucket(text, '--s3');
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

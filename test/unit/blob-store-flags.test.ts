// The blob store flags: an s3:// URL names a valid bucket and a plain prefix,
// the S3 flags come only with it, and an endpoint is an http(s) origin.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { blobStoreSpec } from '../../src/registry/blobs/open-blob-store.js';

describe('blob store flags', () => {
  it('reads the filesystem default and an s3:// bucket with its prefix and options', () => {
    assert.deepEqual(blobStoreSpec({}), { kind: 'filesystem' });
    assert.deepEqual(blobStoreSpec({ blobStore: 'filesystem' }), { kind: 'filesystem' });
    assert.deepEqual(blobStoreSpec({ blobStore: 's3://my-bucket/a/b/', s3Endpoint: 'http://127.0.0.1:7480', s3PathStyle: true, blobRedirect: true }), {
      kind: 's3',
      location: { bucket: 'my-bucket', prefix: 'a/b/' },
      s3: { endpoint: 'http://127.0.0.1:7480', region: undefined, pathStyle: true },
      redirectSeconds: 600,
    });
    assert.deepEqual(blobStoreSpec({ blobStore: 's3://my-bucket' }), {
      kind: 's3',
      location: { bucket: 'my-bucket', prefix: '' },
      s3: { endpoint: undefined, region: undefined, pathStyle: false },
      redirectSeconds: undefined,
    });
  });

  it('refuses malformed URLs, prefixes that are not plain paths, stray S3 flags and endpoints that are not origins', () => {
    const bad: Array<[Parameters<typeof blobStoreSpec>[0], RegExp]> = [
      [{ blobStore: 'S3://bucket' }, /must be s3:\/\/BUCKET/],
      [{ blobStore: 's3://UPPER' }, /valid bucket name/],
      [{ blobStore: 's3://b' }, /valid bucket name/],
      [{ blobStore: `s3://${'x'.repeat(100_000)}` }, /valid bucket name/],
      [{ blobStore: '/srv/blobs' }, /must be s3:\/\//],
      [{ blobStore: 's3://bucket/a/../b' }, /not a plain path/],
      [{ blobStore: 's3://bucket/a//b' }, /not a plain path/],
      [{ blobStore: 's3://bucket/a\0b' }, /not a plain path/],
      [{ blobStore: 's3://bucket/a b' }, /not a plain path/],
      [{ blobStore: `s3://bucket/${'p'.repeat(600)}` }, /not a plain path/],
      [{ s3Endpoint: 'http://127.0.0.1:7480' }, /need --blob-store s3/],
      [{ blobRedirect: true }, /need --blob-store s3/],
      [{ blobStore: 's3://bucket', s3Endpoint: 'ftp://host' }, /--s3-endpoint must be/],
      [{ blobStore: 's3://bucket', s3Endpoint: 'http://host/path' }, /--s3-endpoint must be/],
    ];
    for (const [flags, message] of bad) assert.throws(() => blobStoreSpec(flags), message, JSON.stringify(flags).slice(0, 80));
  });
});

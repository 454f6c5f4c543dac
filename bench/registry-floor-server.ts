// The floor of a blob push, for bench/registry.ts: a bare node:http server
// that speaks just enough of the upload protocol for the bench's push (POST,
// one PATCH, PUT ?digest=) and does only what a push cannot do without —
// receive the body, sha256 it and write it to a file — with no auth, no
// database, no fsync and no framework. Pinned to the servers' core like them.
// With an object store, it is also the floor of a blob pull from S3: any GET
// streams one object (the blob Berth stored) to the client through Berth's
// own S3 client (src/registry/blobs/s3-bucket.ts), nothing else done.
// Usage: node dist/bench/registry-floor-server.js <directory> [<endpoint> <bucket> <key> <size>]
//        (the S3 credentials from AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY)
import { createHash } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import http from 'node:http';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { S3Bucket } from '../src/registry/blobs/s3-bucket.js';

const [dir, endpoint, bucket, objectKey, objectSize] = process.argv.slice(2);
const store = endpoint && bucket && objectKey && objectSize ? new S3Bucket(bucket, { endpoint, pathStyle: true }) : undefined;
let uploads = 0;
const digests = new Map<string, string>();

const server = http.createServer(async (req, res) => {
  const url = new URL(req.url ?? '/', 'http://floor.invalid');
  try {
    if (req.method === 'POST') {
      req.resume();
      res.writeHead(202, { location: `/upload/${++uploads}`, 'content-length': '0' }).end();
    } else if (req.method === 'PATCH') {
      const hash = createHash('sha256');
      await pipeline(
        req,
        async function* (body) {
          for await (const chunk of body) {
            hash.update(chunk);
            yield chunk;
          }
        },
        createWriteStream(join(dir, url.pathname.replaceAll('/', '_')), { highWaterMark: 1 << 20 }),
      );
      digests.set(url.pathname, `sha256:${hash.digest('hex')}`);
      res.writeHead(202, { location: url.pathname, 'content-length': '0' }).end();
    } else if (req.method === 'GET' && store) {
      // The size is given (Berth reads it from its database): one GetObject per pull, as Berth's.
      const body = await store.get(objectKey);
      if (!body) {
        res.writeHead(404, { 'content-length': '0' }).end();
        return;
      }
      res.writeHead(200, { 'content-length': objectSize, 'content-type': 'application/octet-stream' });
      await pipeline(body, res);
    } else if (req.method === 'PUT') {
      req.resume();
      const ok = digests.get(url.pathname) === url.searchParams.get('digest');
      res.writeHead(ok ? 201 : 400, { 'content-length': '0' }).end();
    } else res.writeHead(405, { 'content-length': '0' }).end();
  } catch (err) {
    res.writeHead(500).end(String(err));
  }
});
server.listen(0, '127.0.0.1', () => {
  const { port } = server.address() as { port: number };
  console.log(`floor at http://127.0.0.1:${port}`);
});

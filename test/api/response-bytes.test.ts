// The exact bytes of representative responses, REST JSON and gRPC binary, so
// that work on how responses are built cannot change what clients receive.
// The expected binary is what protobuf-es encodes for the same message built
// the ordinary way (create + timestampFromDate).
import assert from 'node:assert/strict';
import http2 from 'node:http2';
import { describe, it } from 'node:test';
import { create, toBinary, type DescMessage, type MessageShape } from '@bufbuild/protobuf';
import { timestampFromDate } from '@bufbuild/protobuf/wkt';
import { GetRepoRequestSchema, ListReposRequestSchema, ListReposResponseSchema, RepoSchema } from '../../src/gen/berth/registry/v2/repos_pb.js';
import { useBerth, type Berth } from '../harness/berth-process.js';
import { rest } from '../harness/api-client.js';

const TIME = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;

/** One unary gRPC call over HTTP/2; returns the response message's bytes as sent. */
async function grpcBytes<I extends DescMessage>(url: string, token: string, path: string, schema: I, req: MessageShape<I>): Promise<Buffer> {
  const body = toBinary(schema, req);
  const frame = Buffer.alloc(5 + body.length);
  frame.writeUInt32BE(body.length, 1);
  Buffer.from(body).copy(frame, 5);
  const session = http2.connect(url);
  try {
    return await new Promise<Buffer>((resolve, reject) => {
      const r = session.request({ ':method': 'POST', ':path': path, 'content-type': 'application/grpc', te: 'trailers', authorization: `Bearer ${token}` });
      const chunks: Buffer[] = [];
      r.on('data', (c: Buffer) => chunks.push(c));
      r.on('end', () => {
        const all = Buffer.concat(chunks);
        if (all.length < 5) return reject(new Error('no gRPC message in the response'));
        resolve(all.subarray(5, 5 + all.readUInt32BE(1)));
      });
      r.on('error', reject);
      r.end(frame);
    });
  } finally {
    session.close();
  }
}

describe('response bytes', () => {
  let berth: Berth;
  let token: string;
  const made: Array<{ uid: string; name: string; description: string; createTime: string }> = [];
  useBerth(async (b, t) => {
    berth = b;
    token = t;
    for (const [name, description] of [
      ['pin-b', ''],
      ['pin-a', 'first "quoted" \\ ünïcode'],
    ]) {
      const res = await rest(berth.url, 'POST', `/registry/v2/repos/${berth.orgUid}`, { token, body: { name, description } });
      assert.equal(res.status, 200, res.text);
      made.push({ uid: res.json.uid, name, description, createTime: res.json.createTime });
    }
  });

  const repoJson = (r: (typeof made)[number]) =>
    `{"uid":"${r.uid}","name":"${r.name}","description":${JSON.stringify(r.description)},"createTime":"${r.createTime}","updateTime":"${r.createTime}"}`;
  const repoMessage = (r: (typeof made)[number]) => {
    const t = timestampFromDate(new Date(r.createTime));
    return create(RepoSchema, { uid: r.uid, name: r.name, description: r.description, createTime: t, updateTime: t });
  };

  it('GET one repo answers exactly this JSON', async () => {
    const [b, a] = made;
    assert.match(a.createTime, TIME);
    const res = await rest(berth.url, 'GET', `/registry/v2/repos/${a.uid}`, { token });
    assert.equal(res.text, repoJson(a));
    const empty = await rest(berth.url, 'GET', `/registry/v2/repos/${b.uid}`, { token });
    assert.equal(empty.text, repoJson(b)); // empty description written, not left out
  });

  it('a listed page answers exactly this JSON', async () => {
    const [b, a] = made;
    const res = await rest(berth.url, 'GET', '/registry/v2/repos?page_size=1&order_by=name', { token });
    const next = res.json.nextPageToken as string;
    assert.ok(next.length > 0);
    assert.equal(res.text, `{"repos":[${repoJson(a)}],"nextPageToken":"${next}","totalCount":"2","skipped":0}`);
    const last = await rest(berth.url, 'GET', `/registry/v2/repos?page_size=1&order_by=name&page_token=${encodeURIComponent(next)}`, { token });
    assert.equal(last.text, `{"repos":[${repoJson(b)}],"nextPageToken":"","totalCount":"2","skipped":0}`);
  });

  it('GetRepo over gRPC answers exactly the canonical encoding', async () => {
    for (const r of made) {
      const bytes = await grpcBytes(
        berth.url,
        token,
        '/berth.registry.v2.ReposService/GetRepo',
        GetRepoRequestSchema,
        create(GetRepoRequestSchema, { uid: r.uid }),
      );
      assert.deepEqual(bytes, Buffer.from(toBinary(RepoSchema, repoMessage(r))));
    }
  });

  it('ListRepos over gRPC answers exactly the canonical encoding', async () => {
    const [b, a] = made;
    const req = create(ListReposRequestSchema, { pageSize: 2, orderBy: 'name' });
    const bytes = await grpcBytes(berth.url, token, '/berth.registry.v2.ReposService/ListRepos', ListReposRequestSchema, req);
    const want = create(ListReposResponseSchema, { repos: [repoMessage(a), repoMessage(b)], nextPageToken: '', totalCount: 2n, skipped: 0 });
    assert.deepEqual(bytes, Buffer.from(toBinary(ListReposResponseSchema, want)));
  });
});

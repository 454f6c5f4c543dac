// A request body that is not a valid protobuf message is the client's mistake:
// INVALID_ARGUMENT naming the body, over Connect, gRPC and gRPC-Web alike,
// never INTERNAL. Valid messages are answered exactly as before.
import assert from 'node:assert/strict';
import http2 from 'node:http2';
import { describe, it } from 'node:test';
import { create, toBinary } from '@bufbuild/protobuf';
import { PingResponseSchema } from '../../src/gen/berth/ping/v2/ping_pb.js';
import { useBerth, type Berth } from '../harness/berth-process.js';

/** The bytes from the review: field 1, length-delimited, with a length varint that overflows. */
const MALFORMED = Uint8Array.from([0x0a, 0xff, 0xff, 0xff, 0xff, 0x0f]);
const CREATE_REPO = '/berth.registry.v2.ReposService/CreateRepo';

function envelope(payload: Uint8Array, flags = 0): Buffer {
  const head = Buffer.alloc(5);
  head[0] = flags;
  head.writeUInt32BE(payload.length, 1);
  return Buffer.concat([head, payload]);
}

/** One gRPC call over cleartext HTTP/2 with a raw body; the status and message from its trailers. */
async function grpcCall(url: string, path: string, body: Buffer, headers: Record<string, string>): Promise<{ status: number; message: string }> {
  const session = http2.connect(url);
  try {
    return await new Promise((resolve, reject) => {
      const stream = session.request({ ':method': 'POST', ':path': path, 'content-type': 'application/grpc', te: 'trailers', ...headers });
      let found: { status: number; message: string } | undefined;
      const read = (h: http2.IncomingHttpHeaders) => {
        if (h['grpc-status'] !== undefined) found = { status: Number(h['grpc-status']), message: decodeURIComponent(String(h['grpc-message'] ?? '')) };
      };
      stream.on('response', read);
      stream.on('trailers', read);
      stream.on('error', reject);
      stream.on('close', () => (found ? resolve(found) : reject(new Error('no grpc-status'))));
      stream.resume();
      stream.end(body);
    });
  } finally {
    session.close();
  }
}

describe('malformed protobuf request bodies', () => {
  let berth: Berth;
  let auth: Record<string, string>;
  useBerth((b, token) => {
    berth = b;
    auth = { authorization: `Bearer ${token}` };
  });

  it('are INVALID_ARGUMENT over Connect (HTTP 400), naming the body', async () => {
    const res = await fetch(`${berth.url}${CREATE_REPO}`, { method: 'POST', headers: { ...auth, 'content-type': 'application/proto' }, body: MALFORMED });
    const body = (await res.json()) as { code: string; message: string; details: Array<{ type: string }> };
    assert.equal(res.status, 400);
    assert.equal(body.code, 'invalid_argument');
    assert.match(body.message, /^Invalid argument: body: not a valid berth\.registry\.v2\.CreateRepoRequest in protobuf binary/);
    assert.deepEqual(
      body.details.map((d) => d.type),
      ['google.rpc.ErrorInfo', 'google.rpc.BadRequest'],
    );
  });

  it('are INVALID_ARGUMENT over gRPC', async () => {
    const r = await grpcCall(berth.url, CREATE_REPO, envelope(MALFORMED), auth);
    assert.equal(r.status, 3);
    assert.match(r.message, /^Invalid argument: body: not a valid berth\.registry\.v2\.CreateRepoRequest/);
  });

  it('are INVALID_ARGUMENT over gRPC-Web', async () => {
    const res = await fetch(`${berth.url}${CREATE_REPO}`, {
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/grpc-web+proto' },
      body: envelope(MALFORMED),
    });
    const bytes = Buffer.from(await res.arrayBuffer());
    assert.equal(bytes[0], 0x80, 'the body is one trailer frame');
    const trailer = bytes.subarray(5).toString('latin1');
    assert.match(trailer, /^grpc-status: 3\r$/m);
    assert.match(decodeURIComponent(/^grpc-message: (.*)\r$/m.exec(trailer)?.[1] ?? ''), /^Invalid argument: body: not a valid/);
  });

  it('are INVALID_ARGUMENT when a message is flagged compressed without an encoding', async () => {
    const r = await grpcCall(berth.url, CREATE_REPO, envelope(MALFORMED, 1), auth);
    assert.equal(r.status, 3);
    assert.match(r.message, /body: a message is flagged compressed/);
  });

  it('are INVALID_ARGUMENT when a unary gRPC call carries no message or two', async () => {
    const none = await grpcCall(berth.url, '/berth.ping.v2.PingService/Ping', Buffer.alloc(0), {});
    assert.equal(none.status, 3);
    assert.match(none.message, /body: a unary call takes exactly one message/);
    const two = await grpcCall(berth.url, '/berth.ping.v2.PingService/Ping', Buffer.concat([envelope(new Uint8Array()), envelope(new Uint8Array())]), {});
    assert.equal(two.status, 3);
  });

  it('leave valid binary and JSON requests answered byte for byte as before', async () => {
    const ping = `${berth.url}/berth.ping.v2.PingService/Ping`;
    const binary = await fetch(ping, { method: 'POST', headers: { 'content-type': 'application/proto' }, body: new Uint8Array() });
    assert.equal(binary.status, 200);
    assert.deepEqual(new Uint8Array(await binary.arrayBuffer()), toBinary(PingResponseSchema, create(PingResponseSchema, { response: 'pong' })));
    const json = await fetch(ping, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
    assert.equal(await json.text(), '{"response":"pong"}');
    const grpc = await grpcCall(berth.url, '/berth.ping.v2.PingService/Ping', envelope(new Uint8Array()), {});
    assert.equal(grpc.status, 0);
  });
});

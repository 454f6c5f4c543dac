// Connect, gRPC and gRPC-Web requests with malformed bodies: truncated or
// corrupted protobuf, odd envelopes, bad JSON, compression flags without an
// encoding.
import type { DescMethod, DescService } from '@bufbuild/protobuf';
import { create, toBinary } from '@bufbuild/protobuf';
import { deepJson, type Messages } from './messages.js';
import type { Random } from './random.js';
import type { FuzzRequest } from './rest-requests.js';

export class RpcRequests {
  readonly methods: DescMethod[];

  constructor(
    private readonly r: Random,
    private readonly messages: Messages,
    services: readonly DescService[],
    private readonly auth: () => Record<string, string>,
  ) {
    this.methods = services.flatMap((s) => s.methods.filter((m) => m.methodKind === 'unary'));
  }

  /** A Connect unary request, binary or JSON. */
  connect(): FuzzRequest {
    const r = this.r;
    const m = r.pick(this.methods);
    const headers: Record<string, string> = { ...this.auth() };
    if (r.chance(0.3)) headers['connect-protocol-version'] = '1';
    if (r.chance(0.03)) headers['connect-timeout-ms'] = r.pick(['-1', 'soon', '99999999999']);
    let body: string | Uint8Array;
    if (r.chance(0.7)) {
      headers['content-type'] = 'application/proto';
      body = this.protobuf(m);
      if (r.chance(0.05)) headers['content-encoding'] = r.pick(['gzip', 'br', 'zstd']);
    } else {
      headers['content-type'] = 'application/json';
      const x = r.next();
      body = x < 0.15 ? r.pick(['{', '[]', 'null', '{"uid":1}', '\u0000']) : x < 0.2 ? deepJson(r) : JSON.stringify(this.messages.json(m.input, 0, x > 0.6));
    }
    return { protocol: 'connect', method: 'POST', path: pathOf(m), headers, body };
  }

  /** A gRPC (HTTP/2) or gRPC-Web (HTTP/1.1) request: one envelope, maybe a bad one. */
  grpc(protocol: 'grpc' | 'grpc-web'): FuzzRequest {
    const r = this.r;
    const m = r.pick(this.methods);
    const headers: Record<string, string> = {
      ...this.auth(),
      'content-type': protocol === 'grpc' ? r.pick(['application/grpc', 'application/grpc+proto']) : 'application/grpc-web+proto',
    };
    if (protocol === 'grpc') headers.te = 'trailers';
    const payload = this.protobuf(m);
    let flags = 0;
    if (r.chance(0.08)) {
      flags = 1;
      if (r.chance(0.5)) headers['grpc-encoding'] = 'gzip';
    }
    if (r.chance(0.03)) headers['grpc-timeout'] = r.pick(['1x', '999999999H', '-1S']);
    let length = payload.length;
    if (r.chance(0.08)) length = r.pick([payload.length + 1, Math.max(0, payload.length - 1), 0x7fffffff, 0xffffffff]);
    let body = envelope(flags, length, payload);
    if (r.chance(0.05)) body = body.subarray(0, r.int(0, 4));
    if (r.chance(0.05)) body = Buffer.concat([body, envelope(0, payload.length, payload)]);
    return { protocol, method: 'POST', path: pathOf(m), headers, body };
  }

  /** Protobuf bytes for the method's input: valid, corrupted, or noise. */
  protobuf(m: DescMethod): Uint8Array {
    const r = this.r;
    const valid = () => toBinary(m.input, create(m.input, this.messages.typed(m.input) as never));
    switch (r.int(0, 9)) {
      case 0:
        return Uint8Array.from([0x0a, 0xff, 0xff, 0xff, 0xff, 0x0f]);
      case 1:
        return r.bytes(r.int(0, 64));
      case 2: {
        const b = valid();
        return b.subarray(0, r.int(0, b.length));
      }
      case 3: {
        const b = Uint8Array.from(valid());
        if (b.length > 0) b[r.int(0, b.length - 1)] = r.int(0, 255);
        return b;
      }
      case 4:
        return Uint8Array.from([...valid(), r.pick([0x07, 0x0e, 0x0f, 0x00, 0x0c]), 0x01]); // odd wire types, field 0, stray end-group
      case 5:
        return Uint8Array.from(Array.from({ length: r.int(100, 2000) }, () => 0x0b)); // start-group, nested deep
      case 6:
        return Uint8Array.from([0x0a, 0x80, 0x80, 0x80, 0x80, 0x08, 0x01]); // a length far beyond the message
      case 7:
        return Uint8Array.from([0x08, ...Array(11).fill(0xff), 0x01]); // a varint too long
      default:
        return valid();
    }
  }
}

export function pathOf(m: DescMethod): string {
  return `/${m.parent.typeName}/${m.name}`;
}

function envelope(flags: number, length: number, payload: Uint8Array): Buffer {
  const head = Buffer.alloc(5);
  head[0] = flags;
  head.writeUInt32BE(length >>> 0, 1);
  return Buffer.concat([head, payload]);
}

// A request body that does not decode is the client's mistake, but
// Connect-ES answers protobuf binary that does not parse ("parse binary: …")
// and a compressed message it cannot decompress as INTERNAL, and a gRPC unary
// call with no message or two as UNIMPLEMENTED. Decoding happens before any
// interceptor runs and no handler option reaches it, so each handler's answer
// is checked on its way out, in the wire form of the protocol that answered,
// and those errors (known by Connect-ES's messages: the malformed-protobuf
// tests notice if they change) become Berth's INVALID_ARGUMENT for the field
// "body". Other answers pass through untouched.
import { Code, ConnectError, type ConnectRouter } from '@connectrpc/connect';
import { encodeEnvelope, type UniversalHandler, type UniversalServerResponse } from '@connectrpc/connect/protocol';
import {
  codeToHttpStatus,
  endStreamFlag,
  endStreamFromJson,
  endStreamToJson,
  errorFromJsonBytes,
  errorToJsonBytes,
} from '@connectrpc/connect/protocol-connect';
import { findTrailerError, setTrailerStatus } from '@connectrpc/connect/protocol-grpc';
import { trailerFlag, trailerParse, trailerSerialize } from '@connectrpc/connect/protocol-grpc-web';
import { errorDomainOf } from '../core/error-domain.js';
import { badBody } from './errors.js';

/** Wraps every handler registered on the router so far. */
export function answerDecodeFailuresAsInvalidArgument(router: ConnectRouter): void {
  router.handlers.splice(0, router.handlers.length, ...router.handlers.map(wrap));
}

/** Berth's error for a Connect error that is a request decode failure, else undefined. */
function replacementFor(err: ConnectError, handler: UniversalHandler): ConnectError | undefined {
  const m = err.rawMessage;
  let description: string;
  if (err.code === Code.Internal && m.startsWith('parse binary: '))
    description = `not a valid ${handler.method.input.typeName} in protobuf binary (${m.slice(14)})`;
  else if (err.code === Code.Internal && m === 'decompression failed') description = 'could not be decompressed';
  else if (err.code === Code.Internal && m.startsWith('received compressed envelope'))
    description = 'a message is flagged compressed but the request names no encoding';
  else if (err.code === Code.Unimplemented && /^protocol error: (missing|received extra) input message for unary method$/.test(m))
    description = 'a unary call takes exactly one message';
  else return undefined;
  return badBody(errorDomainOf(handler.service), description);
}

function wrap(handler: UniversalHandler): UniversalHandler {
  const wrapped = async (req: Parameters<UniversalHandler>[0]): Promise<UniversalServerResponse> => {
    const res = await handler(req);
    const type = res.header?.get('content-type') ?? '';
    if (res.body === undefined) return res;
    if (res.trailer !== undefined) return { ...res, body: grpcTrailer(res.body, res.trailer, handler) };
    if (type.startsWith('application/grpc-web')) return { ...res, body: lastEnvelope(res.body, trailerFlag, (d) => grpcWebTrailer(d, handler)) };
    if (type.startsWith('application/connect+')) return { ...res, body: lastEnvelope(res.body, endStreamFlag, (d) => connectEndStream(d, handler)) };
    if (res.status === 500 && type.startsWith('application/json') && !res.header?.has('content-encoding')) return connectUnary(res, res.body, handler);
    return res;
  };
  return Object.assign(wrapped, handler);
}

/** gRPC: the status is in the trailers, complete once the body is. */
async function* grpcTrailer(body: AsyncIterable<Uint8Array>, trailer: Headers, handler: UniversalHandler) {
  yield* body;
  const err = findTrailerError(trailer);
  const better = err && replacementFor(err, handler);
  if (better) {
    trailer.delete('grpc-status-details-bin');
    setTrailerStatus(trailer, better);
  }
}

/** gRPC-Web and Connect streams end with a flagged envelope, one per chunk, holding the status. */
async function* lastEnvelope(body: AsyncIterable<Uint8Array>, flag: number, rewrite: (data: Uint8Array) => Uint8Array | undefined) {
  for await (const chunk of body) {
    const declared = chunk.length >= 5 ? new DataView(chunk.buffer, chunk.byteOffset, 5).getUint32(1) : -1;
    const replaced = chunk[0] === flag && declared === chunk.length - 5 ? rewrite(chunk.subarray(5)) : undefined;
    yield replaced ? encodeEnvelope(flag, replaced) : chunk;
  }
}

function grpcWebTrailer(data: Uint8Array, handler: UniversalHandler): Uint8Array | undefined {
  const trailer = trailerParse(data);
  const err = findTrailerError(trailer);
  const better = err && replacementFor(err, handler);
  if (!better) return undefined;
  trailer.delete('grpc-status-details-bin');
  return trailerSerialize(setTrailerStatus(trailer, better));
}

function connectEndStream(data: Uint8Array, handler: UniversalHandler): Uint8Array | undefined {
  const end = endStreamFromJson(data);
  const better = end.error && replacementFor(end.error, handler);
  if (!better) return undefined;
  return new TextEncoder().encode(JSON.stringify(endStreamToJson(end.metadata, better, undefined)));
}

/** Connect unary: an error is the whole (small) JSON body with an HTTP status. */
async function connectUnary(res: UniversalServerResponse, body: AsyncIterable<Uint8Array>, handler: UniversalHandler): Promise<UniversalServerResponse> {
  const chunks: Uint8Array[] = [];
  for await (const c of body) chunks.push(c);
  const bytes = Buffer.concat(chunks);
  const better = replacementFor(errorFromJsonBytes(bytes, undefined, new ConnectError('', Code.Unknown)), handler);
  const out = better ? errorToJsonBytes(better, undefined) : bytes;
  const header = new Headers(res.header);
  header.set('content-length', String(out.byteLength));
  return { ...res, status: better ? codeToHttpStatus(better.code) : res.status, header, body: oneChunk(out) };
}

async function* oneChunk(bytes: Uint8Array) {
  yield bytes;
}

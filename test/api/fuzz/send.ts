// Sends fuzz requests and reduces each answer to an HTTP status, the gRPC
// status where the protocol has one, and a little text. A request that gets
// no answer at all has status 0.
import http2 from 'node:http2';
import type { FuzzRequest } from './rest-requests.js';

export interface Outcome {
  status: number;
  grpcStatus?: number;
  text: string;
}

const TIMEOUT_MS = 20_000;

/** REST, Connect and gRPC-Web: over HTTP/1.1 with fetch. */
export async function sendFetch(base: string, req: FuzzRequest): Promise<Outcome> {
  try {
    const res = await fetch(`${base}${req.path}`, { method: req.method, headers: req.headers, body: req.body, signal: AbortSignal.timeout(TIMEOUT_MS) });
    const bytes = new Uint8Array(await res.arrayBuffer());
    if (req.protocol !== 'grpc-web') return { status: res.status, text: Buffer.from(bytes).toString('utf8') };
    const trailer = grpcWebTrailer(bytes) ?? '';
    const status = /grpc-status: *(\d+)/i.exec(trailer)?.[1] ?? res.headers.get('grpc-status') ?? undefined;
    const text = decodeURIComponent(/grpc-message: *(.*)/i.exec(trailer)?.[1]?.trim() ?? '');
    if (status === undefined && res.status === 200) return { status: 0, text: 'no answer: no grpc-status' };
    return { status: res.status, grpcStatus: status === undefined ? undefined : Number(status), text };
  } catch (err) {
    return { status: 0, text: `no answer: ${String((err as Error).cause ?? err)}` };
  }
}

/** The trailer envelope (flag 0x80) at the end of a gRPC-Web body, as text. */
function grpcWebTrailer(body: Uint8Array): string | undefined {
  let at = 0;
  while (at + 5 <= body.length) {
    const len = Buffer.from(body.buffer, body.byteOffset + at + 1, 4).readUInt32BE(0);
    if (body[at] & 0x80) return Buffer.from(body.subarray(at + 5, at + 5 + len)).toString('latin1');
    at += 5 + len;
  }
  return undefined;
}

/** gRPC over one shared cleartext HTTP/2 session, reopened when the server closes it. */
export class GrpcSender {
  private session: http2.ClientHttp2Session | undefined;

  constructor(private readonly base: string) {}

  send(req: FuzzRequest): Promise<Outcome> {
    if (!this.session || this.session.closed || this.session.destroyed) {
      this.session = http2.connect(this.base);
      this.session.on('error', () => undefined);
    }
    const session = this.session;
    return new Promise((resolve) => {
      let status = 0;
      let grpcStatus: number | undefined;
      let text = '';
      const read = (h: http2.IncomingHttpHeaders) => {
        if (h['grpc-status'] !== undefined) grpcStatus = Number(h['grpc-status']);
        if (h['grpc-message'] !== undefined) text = decodeURIComponent(String(h['grpc-message']));
      };
      const stream = session.request({ ':method': 'POST', ':path': req.path, ...req.headers });
      stream.on('response', (h) => {
        status = Number(h[':status']);
        read(h);
      });
      stream.on('trailers', read);
      stream.on('data', () => undefined);
      stream.on('error', (err) => (text ||= `no answer: ${err.message}`));
      stream.setTimeout(TIMEOUT_MS, () => stream.close(http2.constants.NGHTTP2_CANCEL));
      stream.on('close', () => {
        if (status === 200 && grpcStatus === undefined) resolve({ status: 0, text: `no answer: no grpc-status (stream reset ${stream.rstCode})` });
        else resolve({ status, grpcStatus, text: text || (status === 0 ? `no answer: stream reset ${stream.rstCode}` : '') });
      });
      stream.end(req.body === undefined ? undefined : Buffer.from(req.body));
    });
  }

  close(): void {
    this.session?.close();
  }
}

// Wraps a listener's request handler: gives each request its id (a valid
// X-Request-Id from the client, else a new UUID), returns it in the answer,
// opens its record (src/core/request-record.ts) and, when the answer is
// finished (or the connection closed first), queues what it measured for the
// metrics and the access log (finished-requests.ts). Never logs a header value
// other than the request id: no token, no query string (it may carry secrets),
// only the route template.
import { randomBytes } from 'node:crypto';
import type http from 'node:http';
import type http2 from 'node:http2';
import type { Socket } from 'node:net';
import type { Logger } from 'pino';
import { openRequestRecord, type RequestRecord } from '../core/request-record.js';
import { accessLineWriter } from './access-line.js';
import { finishedRequests, type ListenerName } from './finished-requests.js';
import { ObservedResponse } from './observed-response.js';

type Req = http.IncomingMessage | http2.Http2ServerRequest;
type Res = http.ServerResponse | http2.Http2ServerResponse;
type Handler = (req: Req, res: Res) => void;

export interface ObserveOptions {
  listener: ListenerName;
  logger: Logger;
  /** Writes an access log line per request (at info level). */
  accessLog: boolean;
}

/** A request id a client may choose: 1 to 128 characters of a safe set (UUIDs, ULIDs, base64url, trace ids). */
const REQUEST_ID = /^[A-Za-z0-9][A-Za-z0-9._:+=/-]{0,127}$/;
const METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);
/** The route label of a request no route matched. */
export const UNMATCHED_ROUTE = 'unmatched';

// New ids are UUIDs of version 8 (RFC 9562: custom layout): 74 random bits
// drawn once per process, then a 48-bit counter in the last group. Unique
// across instances and restarts as random ones are, for a string concatenation
// instead of a draw from the random pool per request.
const ID_PREFIX = (() => {
  const h = randomBytes(10).toString('hex');
  const variant = (8 | (Number.parseInt(h[15], 16) & 3)).toString(16);
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-8${h.slice(12, 15)}-${variant}${h.slice(16, 19)}-`;
})();
let idCounter = 0;

function newRequestId(): string {
  idCounter = (idCounter + 1) % 2 ** 48;
  return ID_PREFIX + idCounter.toString(16).padStart(12, '0');
}

/** The client's X-Request-Id when valid, else a new one. */
export function requestIdOf(header: string | string[] | undefined): string {
  return typeof header === 'string' && REQUEST_ID.test(header) ? header : newRequestId();
}

// Bytes a keep-alive socket had read and written when its previous request
// ended: one object per connection, kept beside the socket rather than on it
// (a property added to sockets gave Node's socket code a second shape).
interface Marks {
  read: number;
  written: number;
}
const socketMarks = new WeakMap<Socket, Marks>();

export function observeRequests(handler: Handler, opts: ObserveOptions): Handler {
  const queue = finishedRequests(opts.accessLog ? accessLineWriter(opts.logger) : undefined);
  if (!queue) return handler;
  const finished = (req: Req, res: Res, started: number, id: string, record: RequestRecord) => {
    const seconds = (performance.now() - started) / 1000;
    let sent: number | undefined;
    let received: number | undefined;
    if ('stream' in req) {
      const length = Number(res.getHeader('content-length'));
      if (Number.isFinite(length)) sent = length;
    } else {
      const socket = req.socket;
      let marks = socketMarks.get(socket);
      if (!marks) {
        marks = { read: 0, written: 0 };
        socketMarks.set(socket, marks);
      }
      const written = socket.bytesWritten;
      const read = socket.bytesRead;
      sent = written - marks.written;
      received = read - marks.read;
      marks.read = read;
      marks.written = written;
    }
    queue({
      time: Date.now(),
      listener: opts.listener,
      method: METHODS.has(req.method ?? '') ? (req.method as string) : 'OTHER',
      route: record.route ?? UNMATCHED_ROUTE,
      status: res.statusCode,
      seconds,
      sent,
      received,
      caller: record.caller,
      requestId: id,
    });
  };
  return (req, res) => {
    const started = performance.now();
    const id = requestIdOf(req.headers['x-request-id']);
    if (res instanceof ObservedResponse) res.requestId = id;
    else res.setHeader('x-request-id', id);
    const record = openRequestRecord(req);
    // 'close' comes once, after 'finish' or when the connection ended first (HTTP/1 and HTTP/2 alike).
    res.on('close', () => finished(req, res, started, id, record));
    handler(req, res);
  };
}

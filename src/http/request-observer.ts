// Wraps a listener's request handler: gives each request its id (a valid
// X-Request-Id from the client, else a new UUID), returns it in the answer,
// opens its record (src/core/request-record.ts) and, when the answer is
// finished (or the connection closed first), counts it in the metrics and writes its access log
// line. Never logs a header value other than the request id: no token, no
// query string (it may carry secrets), only the route template.
import { randomUUID } from 'node:crypto';
import type http from 'node:http';
import type http2 from 'node:http2';
import type { Socket } from 'node:net';
import type { Logger } from 'pino';
import { metrics, type Metrics } from '../core/metrics.js';
import { openRequestRecord } from '../core/request-record.js';
import { accessLineWriter } from './access-line.js';

type Req = http.IncomingMessage | http2.Http2ServerRequest;
type Res = http.ServerResponse | http2.Http2ServerResponse;
type Handler = (req: Req, res: Res) => void;

export type ListenerName = 'api' | 'registry';

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

/** The client's X-Request-Id when valid, else a new one. */
export function requestIdOf(header: string | string[] | undefined): string {
  return typeof header === 'string' && REQUEST_ID.test(header) ? header : randomUUID();
}

// Bytes a keep-alive socket had read and written when its previous request ended.
const READ_MARK = Symbol('berth.bytesReadMark');
const WRITTEN_MARK = Symbol('berth.bytesWrittenMark');
type MarkedSocket = Socket & { [READ_MARK]?: number; [WRITTEN_MARK]?: number };

export function observeRequests(handler: Handler, opts: ObserveOptions): Handler {
  const log = opts.accessLog ? accessLineWriter(opts.logger) : undefined;
  const m = metrics();
  if (!log && !m) return handler;
  return (req, res) => {
    const started = performance.now();
    const id = requestIdOf(req.headers['x-request-id']);
    res.setHeader('x-request-id', id);
    const record = openRequestRecord(req);
    const socket = 'stream' in req ? undefined : (req.socket as Socket);
    const marked = socket as MarkedSocket | undefined;
    const markRead = marked?.[READ_MARK] ?? 0;
    const markWritten = marked?.[WRITTEN_MARK] ?? 0;
    // 'close' comes once, after 'finish' or when the connection ended first (HTTP/1 and HTTP/2 alike).
    res.on('close', () => {
      const seconds = (performance.now() - started) / 1000;
      const status = res.statusCode;
      const method = METHODS.has(req.method ?? '') ? (req.method as string) : 'OTHER';
      const route = record.route ?? UNMATCHED_ROUTE;
      let sent: number | undefined;
      let received: number | undefined;
      if (marked) {
        const written = marked.bytesWritten;
        const read = marked.bytesRead;
        sent = written - markWritten;
        received = read - markRead;
        marked[READ_MARK] = read;
        marked[WRITTEN_MARK] = written;
      } else {
        const length = Number(res.getHeader('content-length'));
        if (Number.isFinite(length)) sent = length;
      }
      if (m) record_(m, opts.listener, method, route, status, seconds, sent, received);
      log?.({
        time: Date.now(),
        listener: opts.listener,
        method,
        route,
        status,
        durationMs: Math.round(seconds * 1e6) / 1000,
        bytes: sent,
        caller: record.caller,
        requestId: id,
      });
    });
    handler(req, res);
  };
}

// The routes that exchange a credential for a token, by listener, by the name their counter uses.
const TOKEN_ROUTES: Readonly<Record<ListenerName, ReadonlyMap<string, string>>> = {
  api: new Map([
    ['/sts/exchange', 'sts_exchange'],
    ['/sts/exchange_refresh_token', 'sts_refresh'],
    ['/sts/login', 'sts_login'],
  ]),
  registry: new Map([['/token', 'registry_token']]),
};

function record_(m: Metrics, listener: ListenerName, method: string, route: string, status: number, seconds: number, sent?: number, received?: number) {
  const labels = { listener, method, route, status: String(status) };
  m.httpDuration.observe(labels, seconds);
  const endpoint = TOKEN_ROUTES[listener].get(route);
  if (endpoint) m.tokenExchanges.inc({ endpoint, outcome: status < 400 ? 'issued' : status < 500 ? 'refused' : 'error' });
  if (listener === 'registry') {
    if (sent) m.registrySent.inc(sent);
    if (received) m.registryReceived.inc(received);
  }
}

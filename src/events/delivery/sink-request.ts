// One POST of a delivery to its sink, bounded: a deadline for the whole
// exchange once it has a connection (connect, send, answer, body), at most RESPONSE_LIMIT bytes of the
// answer read (and thrown away), redirects never followed (a 3xx is an
// answer like any other; the caller counts it a failure), and the connection
// made only to addresses the guard checked (sink-guard.ts). Errors carry a
// short reason fit for the delivery log: never the sink's URL (its path or
// query may hold a secret) and never a header.
import http from 'node:http';
import https from 'node:https';
import { isIP } from 'node:net';
import { isLoopbackHost, sinkAddressProblem } from '../sink-address.js';
import { deliveryUrlProblem, hostOf, pinnedLookup, SinkRefused } from './sink-guard.js';

export const REQUEST_TIMEOUT_MS = 10_000;
export const RESPONSE_LIMIT = 64 * 1024;
/** Connections kept open per sink host, and the most in flight to it. */
const SOCKETS_PER_HOST = 16;

// Keep-alive: a busy sink is not paid a TCP (and TLS) handshake per event.
// Idle sockets close before a typical server's keep-alive (5 s) would.
const agents = {
  http: new http.Agent({ keepAlive: true, maxSockets: SOCKETS_PER_HOST, timeout: 4_000 }),
  https: new https.Agent({ keepAlive: true, maxSockets: SOCKETS_PER_HOST, timeout: 4_000 }),
};

export interface SinkAnswer {
  status: number;
  /** The Retry-After header, when the sink sent one. */
  retryAfter?: string;
}

/** A failed exchange: `reason` is for the delivery log; `refused` means the guard said no (do not retry). */
export class SinkFailure extends Error {
  constructor(
    readonly reason: string,
    readonly refused: boolean,
  ) {
    super(reason);
  }
}

export interface SinkRequest {
  url: URL;
  headers: Record<string, string>;
  body: Buffer;
  allowInsecure: boolean;
  /** Aborts the exchange (the worker is stopping). */
  signal?: AbortSignal;
  timeoutMs?: number;
}

function reasonOf(err: unknown, timeoutMs: number): SinkFailure {
  if (err instanceof SinkFailure) return err;
  if (err instanceof SinkRefused) return new SinkFailure(err.message, true);
  const code = String((err as { code?: unknown }).code ?? '');
  const known: Record<string, string> = {
    ECONNREFUSED: 'connection refused',
    ECONNRESET: 'connection reset by the sink',
    EPIPE: 'connection closed by the sink',
    ETIMEDOUT: 'connecting timed out',
    EHOSTUNREACH: 'host unreachable',
    ENETUNREACH: 'network unreachable',
    ENOTFOUND: "the sink's host name does not resolve",
    EAI_AGAIN: "the sink's host name could not be resolved now",
    ABORT_ERR: 'stopped before the sink answered (Berth shut down)',
    ERR_TLS_CERT_ALTNAME_INVALID: "the sink's TLS certificate does not name its host",
    DEPTH_ZERO_SELF_SIGNED_CERT: "the sink's TLS certificate is self-signed",
    SELF_SIGNED_CERT_IN_CHAIN: "the sink's TLS certificate chain is self-signed",
    UNABLE_TO_VERIFY_LEAF_SIGNATURE: "the sink's TLS certificate cannot be verified",
    CERT_HAS_EXPIRED: "the sink's TLS certificate has expired",
    HPE_INVALID_CONSTANT: 'the sink did not answer HTTP',
  };
  if (code === 'EDEADLINE') return new SinkFailure(`no answer within ${timeoutMs / 1000} s`, false);
  return new SinkFailure(known[code] ?? `request failed${/^[A-Z0-9_]{2,48}$/.test(code) ? ` (${code})` : ''}`, false);
}

/** POSTs the delivery; resolves with the sink's status, rejects with a SinkFailure. */
export function postToSink(req: SinkRequest): Promise<SinkAnswer> {
  const timeoutMs = req.timeoutMs ?? REQUEST_TIMEOUT_MS;
  const urlProblem = deliveryUrlProblem(req.url, req.allowInsecure);
  if (urlProblem) return Promise.reject(new SinkFailure(urlProblem, true));
  const host = hostOf(req.url);
  const plain = req.url.protocol === 'http:';
  if (isIP(host) !== 0) {
    // An address in the URL is connected to as is: no lookup runs for it.
    const problem = sinkAddressProblem(host, req.allowInsecure) ?? (plain && !isLoopbackHost(host) ? `the sink address ${host} is not loopback` : undefined);
    if (problem) return Promise.reject(new SinkFailure(problem, true));
  }
  return new Promise<SinkAnswer>((resolve, reject) => {
    let settled = false;
    const finish = (fn: () => void) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      req.signal?.removeEventListener('abort', onAbort);
      fn();
    };
    const client = plain ? http : https;
    const outgoing = client.request(
      {
        protocol: req.url.protocol,
        hostname: host,
        port: req.url.port === '' ? undefined : Number(req.url.port),
        path: `${req.url.pathname}${req.url.search}`,
        method: 'POST',
        headers: { ...req.headers, 'content-length': String(req.body.length) },
        agent: plain ? agents.http : agents.https,
        lookup: pinnedLookup(req.allowInsecure, plain),
        servername: isIP(host) === 0 ? host : undefined,
      },
      (res) => {
        let read = 0;
        const answer: SinkAnswer = { status: res.statusCode ?? 0 };
        const retryAfter = res.headers['retry-after'];
        if (typeof retryAfter === 'string') answer.retryAfter = retryAfter.slice(0, 64);
        res.on('data', (chunk: Buffer) => {
          read += chunk.length;
          if (read > RESPONSE_LIMIT) {
            res.destroy(); // enough: the rest is not read, and this socket is not reused
            finish(() => resolve(answer));
          }
        });
        res.on('end', () => finish(() => resolve(answer)));
        res.on('error', (err) => finish(() => reject(reasonOf(err, timeoutMs))));
        res.on('close', () => finish(() => resolve(answer)));
      },
    );
    // The deadline runs from when the request has a connection to itself (sinks on one host share
    // SOCKETS_PER_HOST); waiting for one is bounded too, by a second deadline from now.
    const expire = () => outgoing.destroy(Object.assign(new Error('deadline'), { code: 'EDEADLINE' }));
    let timer = setTimeout(expire, 2 * timeoutMs);
    outgoing.once('socket', () => {
      if (settled) return;
      clearTimeout(timer);
      timer = setTimeout(expire, timeoutMs);
    });
    const onAbort = () => outgoing.destroy(Object.assign(new Error('aborted'), { code: 'ABORT_ERR' }));
    if (req.signal?.aborted) onAbort();
    req.signal?.addEventListener('abort', onAbort, { once: true });
    outgoing.on('error', (err) => finish(() => reject(reasonOf(err, timeoutMs))));
    outgoing.end(req.body);
  });
}

// One POST of a delivery to its sink, bounded: a deadline for the whole
// exchange once it has a connection (connect, send, answer, body), at most RESPONSE_LIMIT bytes of the
// answer read (and thrown away), redirects never followed (a 3xx is an
// answer like any other; the caller counts it a failure), and the connection
// made only to addresses the outbound policy allows (src/outbound/, with
// --allow-insecure-sinks for private and loopback ones). Errors carry a
// short reason fit for the delivery log: never the sink's URL (its path or
// query may hold a secret) and never a header.
import http from 'node:http';
import https from 'node:https';
import { outboundRequest } from '../../outbound/outbound-request.js';
import { OutboundRefused } from '../../outbound/pinned-lookup.js';
import { sinkPolicy } from '../sink-address.js';

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
  if (err instanceof OutboundRefused) return new SinkFailure(err.message, true);
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
  const plain = req.url.protocol === 'http:';
  let outgoing: http.ClientRequest;
  try {
    outgoing = outboundRequest(req.url, {
      method: 'POST',
      headers: { ...req.headers, 'content-length': String(req.body.length) },
      policy: sinkPolicy(req.allowInsecure),
      what: 'the sink',
      agent: plain ? agents.http : agents.https,
    });
  } catch (err) {
    return Promise.reject(reasonOf(err, timeoutMs));
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
    outgoing.on('response', (res) => {
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
    });
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

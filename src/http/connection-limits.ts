// How many connections Berth keeps and how long a client may stall at each
// stage: before its first bytes, while sending headers (HTTP/2: its SETTINGS),
// while sending a request, and idle between requests. Without these a client
// that sends nothing, or one byte at a time, holds a socket for ever.
import http from 'node:http';
import http2 from 'node:http2';
import type { ConnectionLimits } from './default-limits.js';
import { ObservedResponse } from './observed-response.js';
import { ObservedRequest } from './observed-request.js';

/** Most concurrent streams one HTTP/2 client may open (Node's default is unbounded). */
const MAX_CONCURRENT_STREAMS = 128;

/**
 * The HTTP/1.1 server. Node checks headersTimeout and requestTimeout only
 * every connectionsCheckingInterval (30 s by default), so the check runs
 * often enough for the timeouts to mean what they say.
 */
export function http1Server(limits: ConnectionLimits): http.Server {
  const server = http.createServer({
    IncomingMessage: ObservedRequest,
    ServerResponse: ObservedResponse as typeof http.ServerResponse,
    headersTimeout: limits.headersTimeoutMs,
    requestTimeout: limits.requestTimeoutMs,
    keepAliveTimeout: limits.idleTimeoutMs,
    connectionsCheckingInterval: Math.min(1000, Math.max(100, Math.floor(limits.headersTimeoutMs / 4))),
  });
  // A socket that sends nothing for this long mid-request is a stalled sender.
  server.timeout = limits.idleTimeoutMs;
  return server;
}

/** The HTTP/2 server, with its sessions and streams bounded. */
export function http2Server(limits: ConnectionLimits, handler: (req: http2.Http2ServerRequest, res: http2.Http2ServerResponse) => void): http2.Http2Server {
  const server = http2.createServer({ maxSessionMemory: 64, settings: { maxConcurrentStreams: MAX_CONCURRENT_STREAMS } }, handler);
  // An idle session is told to go away (GOAWAY) and closed; one that does not
  // finish closing shortly after is destroyed.
  server.setTimeout(limits.idleTimeoutMs);
  server.on('timeout', (session: http2.ServerHttp2Session) => {
    session.close();
    setTimeout(() => session.destroy(), 1000).unref();
  });
  server.on('session', (session) => {
    // A client that sent the preface but never its SETTINGS is not an HTTP/2 client.
    const settings = setTimeout(() => session.destroy(), limits.headersTimeoutMs).unref();
    session.once('remoteSettings', () => clearTimeout(settings));
    session.once('close', () => clearTimeout(settings));
  });
  server.on('stream', (stream) => {
    // A stream that goes quiet, or whose request does not arrive in time, is
    // cancelled even while the client keeps its session busy with others.
    const cancel = () => {
      if (!stream.closed) stream.close(http2.constants.NGHTTP2_CANCEL);
    };
    stream.setTimeout(limits.idleTimeoutMs, cancel);
    if (stream.endAfterHeaders) return;
    const request = setTimeout(() => {
      if (!stream.state.remoteClose) cancel();
    }, limits.requestTimeoutMs).unref();
    stream.once('close', () => clearTimeout(request));
  });
  return server;
}

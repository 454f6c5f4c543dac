// One cleartext port for every protocol: connections that open with the HTTP/2
// preface go to an HTTP/2 server (gRPC, and h2c clients), all others to an
// HTTP/1.1 server (REST, Connect, gRPC-Web). Both hand requests to one handler.
// The registry listener uses the same socket bookkeeping, HTTP/1.1 only.
// With a certificate the port speaks TLS instead: ALPN picks the server (h2
// for gRPC and HTTP/2 clients, http/1.1 for the rest), and a reload swaps the
// certificate for new connections while open ones keep theirs.
import type http from 'node:http';
import type http2 from 'node:http2';
import net from 'node:net';
import tls from 'node:tls';
import { http2Server } from './connection-limits.js';
import type { ConnectionLimits } from './default-limits.js';
import { loadCertificate, type LoadedCertificate, type TlsFiles } from './tls-certificate.js';

const PREFACE = Buffer.from('PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n');

type Handler = (req: http.IncomingMessage | http2.Http2ServerRequest, res: http.ServerResponse | http2.Http2ServerResponse) => void;

export interface Listener {
  address: net.AddressInfo;
  /** The certificate served, when the port speaks TLS. */
  certificate?: LoadedCertificate;
  /** Reads the certificate files again and serves them to new connections; throws (keeping the old one) when they cannot be used. */
  reloadCertificate(): LoadedCertificate;
  /** Stops accepting, lets in-flight requests finish, then resolves. */
  close(graceMs: number): Promise<void>;
}

/**
 * `h1` is made by http1Server with the same limits. With `http2: false`
 * (the registry) every connection goes to the HTTP/1.1 server at once.
 */
export async function listen(
  h1: http.Server,
  handler: Handler,
  host: string,
  port: number,
  limits: ConnectionLimits,
  opts: { http2?: boolean; tls?: TlsFiles } = {},
): Promise<Listener> {
  const withH2 = opts.http2 ?? true;
  const h2 = http2Server(limits, handler as never);
  let certificate = opts.tls ? loadCertificate(opts.tls) : undefined;
  const secure = certificate ? secureServer(certificate, withH2, limits, h1, h2) : undefined;
  const sessions = new Set<http2.ServerHttp2Session>();
  h2.on('session', (s) => {
    sessions.add(s);
    s.on('close', () => sessions.delete(s));
  });
  // The HTTP/1.1 server never listens itself (it is handed sockets), and Node
  // starts the check that enforces headersTimeout and requestTimeout, and
  // tracks the idle connections closeIdleConnections() closes, on 'listening'.
  h1.emit('listening');

  const sockets = new Set<net.Socket>();
  const sniffing = new Set<net.Socket>();
  // noDelay as node:http's own servers set it (they never accept here): a streamed
  // response's small writes must not wait for the client's delayed ACK (Nagle).
  const server = net.createServer({ noDelay: true }, (socket) => {
    sockets.add(socket);
    socket.on('close', () => {
      sockets.delete(socket);
      sniffing.delete(socket);
    });
    if (secure) {
      // Bounded by the handshake timeout until it is secure, then by the chosen server.
      secure.emit('connection', socket);
      return;
    }
    if (!withH2) {
      h1.emit('connection', socket);
      return;
    }
    sniffing.add(socket);
    // Until the protocol is known only this listener bounds the socket: a
    // silent client is idle, a trickling one runs out of headers time.
    const giveUp = () => socket.destroy();
    socket.setTimeout(limits.idleTimeoutMs, giveUp);
    const deadline = setTimeout(giveUp, limits.headersTimeoutMs).unref();
    let head: Buffer = Buffer.alloc(0);
    socket.on('readable', function sniff() {
      for (let chunk = socket.read() as Buffer | null; chunk !== null; chunk = socket.read() as Buffer | null) {
        head = head.length === 0 ? chunk : Buffer.concat([head, chunk]);
      }
      const n = Math.min(head.length, PREFACE.length);
      const isH2 = n > 0 && head.subarray(0, n).equals(PREFACE.subarray(0, n));
      if (head.length === 0 || (isH2 && n < PREFACE.length)) return; // not yet known
      socket.off('readable', sniff);
      socket.setTimeout(0);
      socket.off('timeout', giveUp);
      clearTimeout(deadline);
      sniffing.delete(socket);
      socket.unshift(head);
      (isH2 ? h2 : h1).emit('connection', socket);
    });
  });
  // Connections beyond the limit are closed as soon as they are accepted.
  server.maxConnections = limits.maxConnections;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve());
  });
  return {
    address: server.address() as net.AddressInfo,
    get certificate() {
      return certificate;
    },
    reloadCertificate() {
      if (!opts.tls || !secure) throw new Error('this listener serves no TLS');
      const next = loadCertificate(opts.tls);
      secure.setSecureContext(next.context);
      certificate = next;
      return next;
    },
    async close(graceMs: number) {
      const stopped = new Promise<void>((r) => server.close(() => r()));
      for (const s of sniffing) s.destroy();
      for (const s of sessions) s.close();
      h1.closeIdleConnections();
      const drained = new Promise<void>((resolve) => {
        const tick = () => {
          h1.closeIdleConnections();
          if (sockets.size === 0) resolve();
          else setTimeout(tick, 20);
        };
        tick();
      });
      const timeout = new Promise<void>((r) => setTimeout(r, graceMs).unref());
      await Promise.race([Promise.all([stopped, drained]), timeout]);
      for (const s of sockets) s.destroy();
    },
  };
}

/**
 * A TLS server that never listens: the listener hands it sockets, and each
 * secured one goes to the HTTP/2 server when the client chose h2, else to the
 * HTTP/1.1 server (TLS without ALPN is HTTP/1.1: HTTP/2 over TLS needs ALPN).
 * Sockets still in their handshake are not closed early at shutdown; the
 * handshake timeout and the grace period bound them.
 */
function secureServer(cert: LoadedCertificate, withH2: boolean, limits: ConnectionLimits, h1: http.Server, h2: http2.Http2Server): tls.Server {
  const server = tls.createServer({
    ...cert.context,
    ALPNProtocols: withH2 ? ['h2', 'http/1.1'] : ['http/1.1'],
    handshakeTimeout: limits.headersTimeoutMs,
  });
  server.on('secureConnection', (socket: tls.TLSSocket) => (withH2 && socket.alpnProtocol === 'h2' ? h2 : h1).emit('connection', socket));
  // A failed handshake (wrong CA, plain HTTP, a scanner) is the client's: close it quietly.
  server.on('tlsClientError', (_err, socket) => socket.destroy());
  return server;
}

// One cleartext port for every protocol: connections that open with the HTTP/2
// preface go to an HTTP/2 server (gRPC, and h2c clients), all others to an
// HTTP/1.1 server (REST, Connect, gRPC-Web). Both hand requests to one handler.
import http from 'node:http';
import http2 from 'node:http2';
import net from 'node:net';

const PREFACE = Buffer.from('PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n');

type Handler = (req: http.IncomingMessage | http2.Http2ServerRequest, res: http.ServerResponse | http2.Http2ServerResponse) => void;

export interface Listener {
  address: net.AddressInfo;
  /** Stops accepting, lets in-flight requests finish, then resolves. */
  close(graceMs: number): Promise<void>;
}

export async function listen(h1: http.Server, handler: Handler, host: string, port: number): Promise<Listener> {
  const h2 = http2.createServer({ maxSessionMemory: 64 }, handler as never);
  const sessions = new Set<http2.ServerHttp2Session>();
  h2.on('session', (s) => {
    sessions.add(s);
    s.on('close', () => sessions.delete(s));
  });
  const sockets = new Set<net.Socket>();
  const server = net.createServer({ pauseOnConnect: false }, (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.once('readable', function sniff() {
      const head: Buffer | null = socket.read(PREFACE.length) ?? socket.read();
      if (head === null) {
        socket.once('readable', sniff);
        return;
      }
      socket.unshift(head);
      const isH2 = head.length >= 3 && PREFACE.subarray(0, Math.min(head.length, PREFACE.length)).equals(head.subarray(0, Math.min(head.length, PREFACE.length)));
      (isH2 ? h2 : h1).emit('connection', socket);
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve());
  });
  return {
    address: server.address() as net.AddressInfo,
    async close(graceMs: number) {
      const stopped = new Promise<void>((r) => server.close(() => r()));
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

// Idle and slow clients do not hold connections: a silent socket, a client
// trickling its headers, a bare HTTP/2 preface, an idle keep-alive connection,
// an idle HTTP/2 session and a stalled HTTP/2 stream are all closed, and
// connections beyond --max-connections are refused. Berth runs with short
// timeouts here; every bound below is several times the timeout it checks.
import assert from 'node:assert/strict';
import http2 from 'node:http2';
import net from 'node:net';
import { describe, it } from 'node:test';
import { startBerth, useBerth, type Berth } from '../harness/berth-process.js';
import { rest } from '../harness/api-client.js';

const PREFACE = 'PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n';
const BOUND_MS = 12_000;

interface Opened {
  socket: net.Socket;
  /** Everything the server sent, as latin1. */
  received(): string;
  /** Resolves true when the server closes the socket within ms, false otherwise. */
  closedWithin(ms: number): Promise<boolean>;
}

async function open(url: string): Promise<Opened> {
  const { hostname, port } = new URL(url);
  const socket = net.connect(Number(port), hostname);
  let data = '';
  socket.on('data', (d: Buffer) => (data += d.toString('latin1')));
  socket.on('error', () => undefined);
  const closed = new Promise<void>((r) => socket.once('close', () => r()));
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', resolve);
    socket.once('error', reject);
  });
  return {
    socket,
    received: () => data,
    async closedWithin(ms: number) {
      let timer: NodeJS.Timeout | undefined;
      const result = await Promise.race([closed.then(() => true), new Promise<boolean>((r) => (timer = setTimeout(() => r(false), ms)))]);
      clearTimeout(timer);
      if (!result) socket.destroy();
      return result;
    },
  };
}

/** Writes text one byte every intervalMs while the socket is open; returns how many bytes were written. */
function trickle(socket: net.Socket, text: string, intervalMs: number): () => number {
  let i = 0;
  const timer = setInterval(() => {
    if (socket.destroyed || i >= text.length) return clearInterval(timer);
    socket.write(text[i++]);
  }, intervalMs);
  socket.once('close', () => clearInterval(timer));
  return () => i;
}

function sessionClosedWithin(session: http2.ClientHttp2Session, ms: number): Promise<boolean> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      session.destroy();
      resolve(false);
    }, ms);
    session.once('close', () => {
      clearTimeout(timer);
      resolve(true);
    });
  });
}

describe('idle and slow connections', () => {
  let berth: Berth;
  useBerth(
    (b) => {
      berth = b;
    },
    { extraArgs: ['--idle-timeout', '1s', '--headers-timeout', '2s', '--request-timeout', '3s'] },
  );

  it('closes a connection that never sends a byte', async () => {
    const c = await open(berth.url);
    assert.ok(await c.closedWithin(BOUND_MS), 'a silent connection is closed');
  });

  it('closes a client that trickles its request headers before they complete', async () => {
    const c = await open(berth.url);
    // Each byte comes well within the idle timeout, but the headers would take ~30 s.
    const headers = `GET /healthz HTTP/1.1\r\nHost: berth\r\nX-Slow: ${'a'.repeat(80)}\r\n\r\n`;
    const sent = trickle(c.socket, headers, 300);
    assert.ok(await c.closedWithin(BOUND_MS), 'the trickling client is closed');
    assert.ok(sent() < headers.length, `closed after ${sent()} of ${headers.length} bytes`);
    assert.doesNotMatch(c.received(), /^HTTP\/1\.1 200/);
  });

  it('closes a client that trickles a partial HTTP/2 preface', async () => {
    const c = await open(berth.url);
    const sent = trickle(c.socket, PREFACE.repeat(4), 300);
    assert.ok(await c.closedWithin(BOUND_MS), 'the trickling client is closed');
    assert.ok(sent() < PREFACE.length * 4);
  });

  it('closes an HTTP/2 preface that is never followed by SETTINGS', async () => {
    const c = await open(berth.url);
    c.socket.write(PREFACE);
    assert.ok(await c.closedWithin(BOUND_MS), 'a bare preface is closed');
  });

  it('closes a keep-alive connection left idle after a request', async () => {
    const c = await open(berth.url);
    c.socket.write('GET /healthz HTTP/1.1\r\nHost: berth\r\nConnection: keep-alive\r\n\r\n');
    assert.ok(await c.closedWithin(BOUND_MS), 'the idle keep-alive connection is closed');
    assert.match(c.received(), /^HTTP\/1\.1 200 /, 'the request itself was answered');
  });

  it('closes an idle HTTP/2 session after answering it', async () => {
    const session = http2.connect(berth.url);
    session.on('error', () => undefined);
    const status = await new Promise<number>((resolve, reject) => {
      const req = session.request({ ':path': '/healthz' });
      req.on('response', (h) => resolve(Number(h[':status'])));
      req.on('error', reject);
      req.resume();
    });
    assert.equal(status, 200);
    assert.ok(await sessionClosedWithin(session, BOUND_MS), 'the idle session is closed');
  });

  it('cancels an HTTP/2 stream whose request body stalls', async () => {
    const session = http2.connect(berth.url);
    session.on('error', () => undefined);
    const stream = session.request(
      { ':method': 'POST', ':path': `/registry/v2/repos/${berth.orgUid}`, 'content-type': 'application/json' },
      { endStream: false },
    );
    stream.on('error', () => undefined);
    stream.write('{"name":');
    let status = 0;
    stream.on('response', (h) => (status = Number(h[':status'])));
    const closed = await new Promise<boolean>((resolve) => {
      const timer = setTimeout(() => resolve(false), BOUND_MS);
      stream.once('close', () => {
        clearTimeout(timer);
        resolve(true);
      });
    });
    session.destroy();
    assert.ok(closed, 'the stalled stream is closed');
    assert.notEqual(status, 200);
  });

  it('still answers requests', async () => {
    const r = await rest(berth.url, 'GET', '/healthz');
    assert.equal(r.status, 200);
  });
});

describe('answers given before the whole request arrived', () => {
  let berth: Berth;
  useBerth((b) => {
    berth = b;
  });

  it('leave an HTTP/1.1 connection usable for the next request', async () => {
    const c = await open(berth.url);
    // A gRPC-Web message that claims to be larger than any allowed: answered at once, its body unread.
    const body = Buffer.alloc(5 + 300_000, 0x61);
    body[0] = 0;
    body.writeUInt32BE(0x7fffffff, 1);
    c.socket.write(
      `POST /berth.ping.v2.PingService/Ping HTTP/1.1\r\nHost: berth\r\nContent-Type: application/grpc-web+proto\r\nContent-Length: ${body.length}\r\n\r\n`,
    );
    c.socket.write(body);
    c.socket.write('GET /healthz HTTP/1.1\r\nHost: berth\r\n\r\n');
    for (let t = 0; t < 100 && !c.received().includes('"ok"'); t++) await new Promise((r) => setTimeout(r, 50));
    c.socket.destroy();
    assert.match(c.received(), /grpc-status: 8/, 'the oversized message is refused');
    assert.match(c.received(), /\{"status":"ok"\}/, 'the next request on the connection is answered');
  });

  it('let a client still sending a large body read the answer to its oversized headers', async () => {
    const body = JSON.stringify({ name: 'x'.repeat(2_200_000) });
    const statuses = await Promise.all(
      Array.from({ length: 4 }, async () => {
        const seen: string[] = [];
        for (let i = 0; i < 15; i++) {
          const r = await fetch(`${berth.url}/registry/v2/repos/x?q=${'q'.repeat(20_000)}`, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body,
          }).then(
            async (res) => `${res.status} ${res.headers.get('connection')} ${((await res.json()) as { code: number }).code}`,
            (err: Error) => `no answer: ${String(err.cause ?? err)}`,
          );
          seen.push(r);
        }
        return seen;
      }),
    );
    assert.deepEqual([...new Set(statuses.flat())], ['431 close 3']);
  });
});

describe('--max-connections', () => {
  it('refuses connections beyond the limit and accepts again once some close', async () => {
    const berth = await startBerth({ extraArgs: ['--max-connections', '5'] });
    const held: Opened[] = [];
    try {
      for (let i = 0; i < 5; i++) {
        const c = await open(berth.url);
        // An answered request proves the server accepted (and counts) the connection.
        c.socket.write('GET /healthz HTTP/1.1\r\nHost: berth\r\n\r\n');
        for (let t = 0; t < 100 && !c.received().includes('"ok"'); t++) await new Promise((r) => setTimeout(r, 50));
        assert.match(c.received(), /^HTTP\/1\.1 200 /, `connection ${i + 1} is served`);
        held.push(c);
      }
      const sixth = await open(berth.url);
      sixth.socket.write('GET /healthz HTTP/1.1\r\nHost: berth\r\n\r\n');
      assert.ok(await sixth.closedWithin(BOUND_MS), 'the sixth connection is closed');
      assert.equal(sixth.received(), '', 'the sixth connection got no answer');

      for (const c of held) c.socket.destroy();
      let status = 0;
      for (let t = 0; t < 50 && status !== 200; t++) {
        status = await rest(berth.url, 'GET', '/healthz').then(
          (r) => r.status,
          () => 0,
        );
        if (status !== 200) await new Promise((r) => setTimeout(r, 100));
      }
      assert.equal(status, 200, 'requests are served once the held connections close');
    } finally {
      for (const c of held) c.socket.destroy();
      await berth.stop();
    }
  });
});

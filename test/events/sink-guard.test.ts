// Deliveries never go where they must not (SSRF): a sink at the cloud
// metadata address or another link-local one is refused even on a server
// that allows insecure sinks; without that flag a sink whose name resolves to
// loopback, a private address or plain http is refused too. A refused
// delivery is dead at once, says why in the log, and nothing is contacted.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import net from 'node:net';
import { hostname } from 'node:os';
import { after, before, describe, it } from 'node:test';
import { rest } from '../harness/api-client.js';
import { useBerth, type Berth } from '../harness/berth-process.js';
import { childUid, EventSource, subscribe } from '../harness/event-setup.js';

/** The log entry of the subscription's only delivery, once it is no longer pending. */
async function settled(berth: Berth, token: string, sub: string): Promise<Record<string, unknown>> {
  for (let i = 0; i < 300; i++) {
    const r = await rest(berth.url, 'GET', `/events/v2/subscriptions/${sub}/deliveries`, { token });
    assert.equal(r.status, 200, r.text);
    const d = r.json.deliveries?.[0];
    if (d && d.status !== 'PENDING') return d;
    await new Promise((res) => setTimeout(res, 50));
  }
  throw new Error('the delivery stayed pending');
}

function guardSuite(name: string, extraArgs: string[], cases: (ctx: { tcpPort: () => number }) => Array<[string, string, RegExp]>) {
  describe(name, () => {
    let berth: Berth;
    let token: string;
    let events: EventSource;
    let tcp: net.Server;
    let connections = 0;
    useBerth(
      (b, t) => {
        berth = b;
        token = t;
      },
      { extraArgs },
    );
    before(async () => {
      events = await EventSource.open(berth);
      // Stands in for anything listening on this machine: it counts whoever connects.
      tcp = net.createServer((s) => {
        connections++;
        s.destroy();
      });
      await new Promise<void>((r) => tcp.listen(0, '127.0.0.1', r));
    });
    after(async () => {
      await events?.close();
      await new Promise((r) => tcp?.close(r));
    });

    const tcpPort = () => (tcp.address() as net.AddressInfo).port;
    for (const [what, sinkTemplate, reason] of cases({ tcpPort })) {
      it(`refuses ${what}`, async () => {
        const group = await rest(berth.url, 'POST', `/iam/v2/groups/${berth.orgUid}`, { token, body: { name: `g-${randomBytes(4).toString('hex')}` } });
        const g = group.json.uid as string;
        const sink = sinkTemplate.replace('PORT', String(tcpPort()));
        const sub = await subscribe(berth, g, sink);
        await events.emit({ group: g, subject: childUid(g) });
        const d = await settled(berth, token, sub);
        assert.equal(d.status, 'DEAD');
        assert.equal(d.attempts, 1, 'refused once, not retried');
        assert.equal(d.lastStatusCode, 0);
        assert.match(String(d.lastError), reason);
        assert.ok(!String(d.lastError).includes(sink), 'the log does not quote the sink URL');
        assert.equal(connections, 0, 'nothing was contacted');
      });
    }
  });
}

guardSuite('sink guard, with --allow-insecure-sinks', ['--allow-insecure-sinks'], () => [
  ['the cloud metadata address', 'https://169.254.169.254/latest/meta-data?token=s3cret', /169\.254\.169\.254 is the cloud metadata address/],
  [
    'the metadata address written as IPv4-mapped IPv6',
    'https://[::ffff:169.254.169.254]/x',
    /(169\.254\.169\.254|::ffff:a9fe:a9fe) is the cloud metadata address/,
  ],
  ['a link-local address', 'https://169.254.10.20:8443/hook', /169\.254\.10\.20 is a link-local address/],
  ['an IPv6 link-local address', 'https://[fe80::1]/hook', /fe80::1 is a link-local address/],
  ['the unspecified address', 'http://0.0.0.0:PORT/hook', /is not loopback|is unspecified/],
  ['plain http to a host that is not loopback', 'http://192.0.2.10/hook', /plain http to a host that is not loopback/],
]);

guardSuite('sink guard, without --allow-insecure-sinks', [], () => [
  ['a loopback name', 'https://localhost:PORT/hook', /localhost is a loopback host \(accepted only on a server run with --allow-insecure-sinks\)/],
  // This machine's name resolves to one of its own addresses (loopback or private): refused when connecting.
  [
    'a name that resolves to a loopback or private address',
    `https://${hostname()}:PORT/hook`,
    /is a (loopback|private) address \(accepted only on a server run with --allow-insecure-sinks\)/,
  ],
  ['a loopback address', 'https://127.0.0.1:PORT/hook', /127\.0\.0\.1 is a loopback address/],
  ['a private address', 'https://10.11.12.13/hook', /10\.11\.12\.13 is a private address/],
  ['plain http', 'http://127.0.0.1:PORT/hook', /must be an https URL \(plain http only for loopback hosts/],
  ['the metadata address written as IPv4-translated IPv6', 'https://[::ffff:0:a9fe:a9fe]/x', /is the cloud metadata address/],
]);

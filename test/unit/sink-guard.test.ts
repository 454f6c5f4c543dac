// The delivery SSRF guard's rules, one address and one URL at a time, and
// its pinned lookup: a name whose addresses include a refused one is refused
// (DNS answers cannot be mixed to slip one through), and a name is connected
// to exactly the addresses that were checked.
import assert from 'node:assert/strict';
import type { LookupAddress } from 'node:dns';
import { describe, it } from 'node:test';
import { deliveryUrlProblem, pinnedLookup, SinkRefused } from '../../src/events/delivery/sink-guard.js';
import { sinkAddressProblem } from '../../src/events/sink-address.js';

describe('sinkAddressProblem', () => {
  it('always refuses unspecified, link-local, metadata, multicast and reserved addresses', () => {
    for (const ip of [
      '0.0.0.0',
      '169.254.169.254',
      '169.254.0.1',
      '224.0.0.251',
      '239.255.255.250',
      '240.0.0.1',
      '255.255.255.255',
      '::',
      'fe80::1',
      'ff02::1',
      'fd00:ec2::254',
      '100.100.100.200',
      '::ffff:169.254.169.254',
      '::ffff:a9fe:a9fe',
      '64:ff9b::169.254.169.254',
    ]) {
      assert.ok(sinkAddressProblem(ip, true), `${ip} is refused even with --allow-insecure-sinks`);
      assert.ok(sinkAddressProblem(ip, false), `${ip} is refused`);
    }
  });

  it('refuses private, loopback and shared addresses unless insecure sinks are allowed', () => {
    for (const ip of [
      '127.0.0.1',
      '127.1.2.3',
      '10.0.0.1',
      '172.16.5.4',
      '172.31.255.255',
      '192.168.1.1',
      '100.64.0.1',
      '::1',
      'fc00::1',
      'fd12:3456::1',
      '::ffff:10.0.0.1',
    ]) {
      assert.ok(sinkAddressProblem(ip, false), `${ip} is refused`);
      assert.equal(sinkAddressProblem(ip, true), undefined, `${ip} is allowed with --allow-insecure-sinks`);
    }
  });

  it('allows public addresses', () => {
    for (const ip of ['93.184.216.34', '8.8.8.8', '172.32.0.1', '2606:4700:4700::1111', '::ffff:93.184.216.34']) {
      assert.equal(sinkAddressProblem(ip, false), undefined, ip);
    }
  });
});

describe('deliveryUrlProblem', () => {
  it('allows https, and plain http only to a loopback host with --allow-insecure-sinks', () => {
    assert.equal(deliveryUrlProblem(new URL('https://hooks.example/x'), false), undefined);
    assert.ok(deliveryUrlProblem(new URL('http://hooks.example/x'), false));
    assert.ok(deliveryUrlProblem(new URL('http://hooks.example/x'), true));
    assert.ok(deliveryUrlProblem(new URL('http://127.0.0.1:8080/x'), false));
    assert.equal(deliveryUrlProblem(new URL('http://127.0.0.1:8080/x'), true), undefined);
    assert.equal(deliveryUrlProblem(new URL('http://localhost:8080/x'), true), undefined);
    assert.equal(deliveryUrlProblem(new URL('http://[::1]:8080/x'), true), undefined);
    assert.ok(deliveryUrlProblem(new URL('ftp://hooks.example/x'), true));
    assert.ok(deliveryUrlProblem(new URL('file:///etc/passwd'), true));
  });
});

describe('pinnedLookup', () => {
  const fake =
    (addresses: LookupAddress[]) =>
    (_host: string, cb: (err: NodeJS.ErrnoException | null, a: LookupAddress[]) => void): void =>
      cb(null, addresses);
  const run = (lookup: ReturnType<typeof pinnedLookup>, all: boolean) =>
    new Promise<{ err: Error | null; address: unknown; family?: number }>((resolve) =>
      lookup('hooks.example', { all } as never, ((err: Error | null, address: unknown, family?: number) => resolve({ err, address, family })) as never),
    );

  it('refuses a name when any of its addresses is refused', async () => {
    const r = await run(
      pinnedLookup(
        false,
        false,
        fake([
          { address: '93.184.216.34', family: 4 },
          { address: '169.254.169.254', family: 4 },
        ]),
      ),
      false,
    );
    assert.ok(r.err instanceof SinkRefused);
    assert.match(r.err.message, /metadata/);
  });

  it('refuses a name that resolves to a private address', async () => {
    const r = await run(pinnedLookup(false, false, fake([{ address: '10.0.0.7', family: 4 }])), false);
    assert.ok(r.err instanceof SinkRefused);
  });

  it('refuses plain http to a name that resolves to something other than loopback', async () => {
    const r = await run(pinnedLookup(true, true, fake([{ address: '93.184.216.34', family: 4 }])), false);
    assert.ok(r.err instanceof SinkRefused);
  });

  it('connects to exactly the checked addresses', async () => {
    const addresses = [
      { address: '93.184.216.34', family: 4 },
      { address: '2606:2800:220:1:248:1893:25c8:1946', family: 6 },
    ];
    const one = await run(pinnedLookup(false, false, fake(addresses)), false);
    assert.equal(one.err, null);
    assert.equal(one.address, '93.184.216.34');
    assert.equal(one.family, 4);
    const every = await run(pinnedLookup(false, false, fake(addresses)), true);
    assert.deepEqual(every.address, addresses);
  });
});

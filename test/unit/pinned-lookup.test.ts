// The lookup of every outbound connection: a name whose addresses include a
// refused one is refused (DNS answers cannot be mixed to slip one through),
// a name that resolves to a private or link-local address is refused like the
// address, and a name is connected to exactly the addresses that were checked.
import assert from 'node:assert/strict';
import type { LookupAddress } from 'node:dns';
import { describe, it } from 'node:test';
import { issuerPolicy } from '../../src/auth/issuer-url.js';
import { sinkPolicy } from '../../src/events/sink-address.js';
import { OutboundRefused, pinnedLookup } from '../../src/outbound/pinned-lookup.js';

const strict = sinkPolicy(false);
const relaxed = sinkPolicy(true);

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
        strict,
        false,
        fake([
          { address: '93.184.216.34', family: 4 },
          { address: '169.254.169.254', family: 4 },
        ]),
      ),
      false,
    );
    assert.ok(r.err instanceof OutboundRefused);
    assert.match(r.err?.message ?? '', /metadata/);
  });

  it('refuses a name that resolves to a private address', async () => {
    const r = await run(pinnedLookup(strict, false, fake([{ address: '10.0.0.7', family: 4 }])), false);
    assert.ok(r.err instanceof OutboundRefused);
  });

  it('refuses an issuer name that resolves to a private or link-local address', async () => {
    for (const address of ['10.1.2.3', '169.254.1.2', '::ffff:0:a9fe:a9fe']) {
      const r = await run(pinnedLookup(issuerPolicy(false), false, fake([{ address, family: address.includes(':') ? 6 : 4 }])), false);
      assert.ok(r.err instanceof OutboundRefused, address);
    }
  });

  it('refuses plain http to a name that resolves to something other than loopback', async () => {
    const r = await run(pinnedLookup(relaxed, true, fake([{ address: '93.184.216.34', family: 4 }])), false);
    assert.ok(r.err instanceof OutboundRefused);
  });

  it('connects to exactly the checked addresses', async () => {
    const addresses = [
      { address: '93.184.216.34', family: 4 },
      { address: '2606:2800:220:1:248:1893:25c8:1946', family: 6 },
    ];
    const one = await run(pinnedLookup(strict, false, fake(addresses)), false);
    assert.equal(one.err, null);
    assert.equal(one.address, '93.184.216.34');
    assert.equal(one.family, 4);
    const every = await run(pinnedLookup(strict, false, fake(addresses)), true);
    assert.deepEqual(every.address, addresses);
  });
});

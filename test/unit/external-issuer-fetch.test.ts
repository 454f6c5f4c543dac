// How far (time, size, redirects, origin) a fetch /sts/exchange makes on
// behalf of an unverified token may go. Which addresses it may reach:
// outbound-policy.test.ts and test/api/sts-outbound.test.ts.
import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { boundedGet } from '../../src/auth/bounded-fetch.js';
import { ExternalIssuers } from '../../src/auth/external-issuers.js';
import { issuerPolicy } from '../../src/auth/issuer-url.js';

// Loopback listeners stand in for the issuers: allowed as with --allow-insecure-issuers.
const policy = issuerPolicy(true);

describe('bounded fetches', () => {
  let base = '';
  let other = '';
  const servers: http.Server[] = [];
  const serve = async (handler: http.RequestListener) => {
    const s = http.createServer(handler);
    servers.push(s);
    await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
    return `http://127.0.0.1:${(s.address() as AddressInfo).port}`;
  };
  before(async () => {
    other = await serve((_req, res) => res.end('{"keys":[]}'));
    base = await serve((req, res) => {
      if (req.url === '/big') res.end('x'.repeat(70 * 1024));
      else if (req.url === '/big-chunked') {
        res.write('x'.repeat(40 * 1024));
        res.end('x'.repeat(40 * 1024));
      } else if (req.url === '/slow') setTimeout(() => res.end('{}'), 2000);
      else if (req.url === '/here') res.writeHead(302, { location: '/ok' }).end();
      else if (req.url === '/away') res.writeHead(302, { location: `${other}/` }).end();
      else if (req.url === '/.well-known/openid-configuration') res.end(JSON.stringify({ issuer: base, jwks_uri: `${other}/jwks` }));
      else res.end('{"ok":true}');
    });
  });
  after(() => {
    for (const s of servers) s.closeAllConnections();
    return Promise.all(servers.map((s) => new Promise((r) => s.close(r))));
  });
  const bounds = { timeoutMs: 500, maxBytes: 64 * 1024 };

  it('reads an answer within the bounds and follows a redirect on the same origin', async () => {
    assert.equal(Buffer.from(await boundedGet(new URL(`${base}/here`), bounds, policy)).toString(), '{"ok":true}');
  });

  it('refuses an answer over the size bound, declared or streamed', async () => {
    await assert.rejects(boundedGet(new URL(`${base}/big`), bounds, policy), /exceeds/);
    await assert.rejects(boundedGet(new URL(`${base}/big-chunked`), bounds, policy), /exceeds/);
  });

  it('gives up on a slow answer and on a redirect to another origin', async () => {
    await assert.rejects(boundedGet(new URL(`${base}/slow`), bounds, policy), /timeout|aborted/i);
    await assert.rejects(boundedGet(new URL(`${base}/away`), bounds, policy), /redirect/);
  });

  it("takes an issuer's keys only from its own origin", async () => {
    const issuers = new ExternalIssuers({ allowInsecure: true });
    await assert.rejects(issuers.keys(base), /own origin/);
  });

  it('refuses plain http without the flag, before connecting', async () => {
    await assert.rejects(boundedGet(new URL(`${base}/here`), bounds, issuerPolicy(false)), /https.*--allow-insecure-issuers/);
  });
});

// What /sts/exchange may fetch on behalf of an unverified token: which issuer
// URLs, and how far (time, size, redirects) a fetch may go.
import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { boundedGet } from '../../src/auth/bounded-fetch.js';
import { ExternalIssuers } from '../../src/auth/external-issuers.js';
import { issuerUrlProblem } from '../../src/auth/issuer-url.js';

describe('issuer URLs Berth may contact', () => {
  const pattern = { named: false, allowInsecureLoopback: false };
  const patternLoopbackOk = { named: false, allowInsecureLoopback: true };
  const named = { named: true, allowInsecureLoopback: false };

  it('allows https issuers and, when named exactly, plain http ones', () => {
    assert.equal(issuerUrlProblem('https://token.actions.githubusercontent.com', pattern), undefined);
    assert.equal(issuerUrlProblem('https://gitlab.example/realms/ci/', pattern), undefined);
    assert.equal(issuerUrlProblem('http://idp.internal:8080', named), undefined);
  });

  it('allows plain http for a pattern-matched issuer only on loopback with the flag', () => {
    assert.match(issuerUrlProblem('http://127.0.0.1:9000', pattern) ?? '', /https/);
    assert.equal(issuerUrlProblem('http://127.0.0.1:9000', patternLoopbackOk), undefined);
    assert.equal(issuerUrlProblem('http://[::1]:9000', patternLoopbackOk), undefined);
    assert.match(issuerUrlProblem('http://10.0.0.1:9000', patternLoopbackOk) ?? '', /https/);
    assert.match(issuerUrlProblem('http://127.0.0.1.evil.example', patternLoopbackOk) ?? '', /https/);
  });

  it('refuses queries, fragments, credentials, other schemes and non-canonical forms, even when named', () => {
    for (const iss of [
      'https://idp.example/a?x=1',
      'https://idp.example/a?',
      'https://idp.example/a#f',
      'https://user:pw@idp.example',
      'file:///etc/passwd',
      'https://idp.example/a/../admin',
      'https://IDP.example',
      'https://idp.example:443',
      'not a url',
    ]) {
      assert.notEqual(issuerUrlProblem(iss, named), undefined, iss);
    }
  });
});

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
    assert.equal(Buffer.from(await boundedGet(new URL(`${base}/here`), bounds)).toString(), '{"ok":true}');
  });

  it('refuses an answer over the size bound, declared or streamed', async () => {
    await assert.rejects(boundedGet(new URL(`${base}/big`), bounds), /exceeds/);
    await assert.rejects(boundedGet(new URL(`${base}/big-chunked`), bounds), /exceeds/);
  });

  it('gives up on a slow answer and on a redirect to another origin', async () => {
    await assert.rejects(boundedGet(new URL(`${base}/slow`), bounds), /timeout|aborted/i);
    await assert.rejects(boundedGet(new URL(`${base}/away`), bounds), /redirect/);
  });

  it('takes keys of a pattern-matched issuer only from its own origin', async () => {
    const issuers = new ExternalIssuers({ allowInsecureLoopback: true });
    await assert.rejects(issuers.keys(base, false), /own origin/);
    assert.equal(typeof (await issuers.keys(base, true)), 'function', 'an exactly named issuer may keep its keys elsewhere');
  });
});

// Berth's own requests to OIDC issuers (discovery, JWKS, an identity
// provider's token endpoint) follow the outbound policy webhook deliveries
// follow: never to metadata, link-local or other reserved addresses; to
// loopback and private ones, and over plain http (loopback only), only on a
// server run with --allow-insecure-issuers; checked on the address each
// connection goes to, so a name resolving to loopback is refused too. The
// JWKS must be on the issuer's origin. Loopback listeners stand in for the
// internal services: they must receive nothing.
import assert from 'node:assert/strict';
import { lookup } from 'node:dns/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { hostname } from 'node:os';
import { after, before, describe, it } from 'node:test';
import { exportJWK, generateKeyPair, SignJWT } from 'jose';
import { ownerToken, rest } from '../harness/api-client.js';
import { type Berth, startBerth } from '../harness/berth-process.js';
import { sqlQuery } from '../harness/database.js';

const VIEWER_UID = '63921b2c44617e3f2603851537be0123af4a57d7';

/**
 * A loopback OIDC issuer that would answer correctly if asked (so a test
 * that fails to refuse it passes the exchange), counting every connection and
 * request; its JWKS is served by `keysAt` when given (another origin).
 */
async function trapIssuer(keysAt?: string) {
  const { privateKey, publicKey } = await generateKeyPair('RS256');
  const jwk = { ...(await exportJWK(publicKey)), kid: 'ext', alg: 'RS256', use: 'sig' };
  const requests: string[] = [];
  let connections = 0;
  const server = http.createServer((req, res) => {
    requests.push(req.url ?? '');
    res.setHeader('content-type', 'application/json');
    if (req.url === '/.well-known/openid-configuration') {
      res.end(JSON.stringify({ issuer: url, jwks_uri: `${keysAt ?? url}/jwks`, token_endpoint: `${url}/token` }));
    } else if (req.url === '/jwks') res.end(JSON.stringify({ keys: [jwk] }));
    else res.writeHead(404).end('{}');
  });
  server.on('connection', () => connections++);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as AddressInfo).port;
  const url = `http://127.0.0.1:${port}`;
  const sign = (sub: string, aud: string, iss = url) =>
    new SignJWT({})
      .setProtectedHeader({ alg: 'RS256', kid: 'ext' })
      .setIssuer(iss)
      .setSubject(sub)
      .setAudience(aud)
      .setIssuedAt()
      .setExpirationTime('5m')
      .sign(privateKey);
  return {
    url,
    port,
    requests,
    connections: () => connections,
    sign,
    close: () => {
      server.closeAllConnections();
      return new Promise((r) => server.close(r));
    },
  };
}

type Trap = Awaited<ReturnType<typeof trapIssuer>>;

const fieldsOf = (body: { details?: { fieldViolations?: { field: string; description: string }[] }[] }) =>
  (body.details ?? []).flatMap((d) => d.fieldViolations ?? []);

function exchange(berth: Berth, assertion: string, identity?: string) {
  const q = identity ? `?identity=${encodeURIComponent(identity)}` : '';
  return rest(berth.url, 'POST', `/sts/exchange${q}`, { headers: { authorization: `Bearer ${assertion}` } });
}

async function identity(berth: Berth, token: string, claimMatch: object): Promise<string> {
  const r = await rest(berth.url, 'POST', `/iam/v2/identities/${berth.orgUid}`, {
    token,
    body: { name: `ci-${Math.random().toString(16).slice(2)}`, claimMatch },
  });
  assert.equal(r.status, 200, r.text);
  return r.json.uid as string;
}

/** Rewrites a stored identity's exact issuer: a row written before the policy existed. */
async function plantIssuer(berth: Berth, uid: string, from: string, to: string): Promise<void> {
  const [row] = await sqlQuery(berth, 'select relationship from identities where uid = $1', [uid]);
  const relationship = String(row.relationship).replace(JSON.stringify(from), JSON.stringify(to));
  await sqlQuery(berth, 'update identities set relationship = $1, issuer = $2 where uid = $3', [relationship, to, uid]);
}

describe('issuer fetches without --allow-insecure-issuers', () => {
  let berth: Berth;
  let token: string;
  let trap: Trap;
  before(async () => {
    berth = await startBerth();
    token = ownerToken(berth.credentialsFile);
    trap = await trapIssuer();
  });
  after(async () => {
    await berth.stop();
    await trap.close();
  });

  it('refuses to create or update an identity whose issuer is plain http or an internal address', async () => {
    const refused = [
      trap.url,
      `https://127.0.0.1:${trap.port}`,
      `https://localhost:${trap.port}`,
      'http://idp.example.com',
      'https://10.0.0.1',
      'https://169.254.169.254',
      'https://[::ffff:0:a9fe:a9fe]',
      'https://[64:ff9b:1::a00:1]',
      'https://192.0.2.1',
    ];
    for (const issuer of refused) {
      const r = await rest(berth.url, 'POST', `/iam/v2/identities/${berth.orgUid}`, {
        token,
        body: { name: 'internal', claimMatch: { issuer, subject: 's' } },
      });
      assert.equal(r.status, 400, `${issuer}: ${r.text}`);
      assert.equal(r.json.code, 3);
      assert.deepEqual(
        fieldsOf(r.json).map((v) => v.field),
        ['claim_match.issuer'],
        issuer,
      );
    }
    const uid = await identity(berth, token, { issuer: 'https://ci.example', subject: 's' });
    const patched = await rest(berth.url, 'PATCH', `/iam/v2/identities/${uid}`, { token, body: { claimMatch: { issuer: 'https://10.1.2.3', subject: 's' } } });
    assert.equal(patched.status, 400, patched.text);
    assert.match(fieldsOf(patched.json)[0].description, /10\.1\.2\.3 is a private address \(accepted only on a server run with --allow-insecure-issuers\)/);
    assert.equal(trap.connections(), 0);
  });

  it('refuses to create or update an identity provider whose issuer is an internal address', async () => {
    const path = `/iam/v2/identityProviders/${berth.orgUid}`;
    const body = (issuer: string) => ({ name: 'corp-sso', defaultRole: VIEWER_UID, oidc: { issuer, clientId: 'berth' } });
    for (const issuer of ['https://10.0.0.1', 'https://169.254.169.254', `https://localhost:${trap.port}`, 'https://[2001:db8::1]']) {
      const r = await rest(berth.url, 'POST', path, { token, body: body(issuer) });
      assert.equal(r.status, 400, `${issuer}: ${r.text}`);
      assert.deepEqual(
        fieldsOf(r.json).map((v) => v.field),
        ['identity_provider.oidc.issuer'],
        issuer,
      );
    }
    const created = await rest(berth.url, 'POST', path, { token, body: body('https://idp.example.com') });
    assert.equal(created.status, 200, created.text);
    const patched = await rest(berth.url, 'PATCH', `/iam/v2/identityProviders/${created.json.uid}`, {
      token,
      body: { oidc: { issuer: 'https://192.168.1.1', clientId: 'berth' } },
    });
    assert.equal(patched.status, 400, patched.text);
    assert.deepEqual(
      fieldsOf(patched.json).map((v) => v.field),
      ['identity_provider.oidc.issuer'],
    );
  });

  it('contacts no plain-http issuer that a stored identity names exactly', async () => {
    const uid = await identity(berth, token, { issuer: 'https://ci.example', subject: 'repo:acme/app' });
    await plantIssuer(berth, uid, 'https://ci.example', trap.url);
    const r = await exchange(berth, await trap.sign('repo:acme/app', berth.url), uid);
    assert.equal(r.status, 403, r.text);
    assert.equal(trap.connections(), 0, 'nothing was contacted');
  });

  it('contacts no issuer matched by a pattern whose name is or resolves to loopback', async () => {
    const uid = await identity(berth, token, { issuerPattern: 'https://.*', subject: 'x' });
    const names = ['localhost'];
    // This machine's own name resolves to one of its addresses: the refusal happens when connecting.
    const own = hostname();
    const resolved = await lookup(own).catch(() => undefined);
    if (own !== 'localhost' && resolved?.address.startsWith('127.')) names.push(own);
    for (const name of names) {
      const r = await exchange(berth, await trap.sign('x', berth.url, `https://${name}:${trap.port}`), uid);
      assert.equal(r.status, 403, `${name}: ${r.text}`);
    }
    assert.equal(trap.connections(), 0, `nothing was contacted (tried ${names.join(', ')})`);
  });

  it('contacts no issuer that only matches a pattern over plain http', async () => {
    const uid = await identity(berth, token, { issuerPattern: 'http://127\\.0\\.0\\.1:\\d+/.*', subject: 'x' });
    const r = await exchange(berth, await trap.sign('x', berth.url, `${trap.url}/internal/admin`), uid);
    assert.equal(r.status, 403, r.text);
    assert.equal(trap.connections(), 0);
  });

  it('signs in through no stored identity provider whose issuer is plain http', async () => {
    const created = await rest(berth.url, 'POST', `/iam/v2/identityProviders/${berth.orgUid}`, {
      token,
      body: { name: 'legacy-sso', defaultRole: VIEWER_UID, oidc: { issuer: 'https://legacy.example.com', clientId: 'berth' } },
    });
    assert.equal(created.status, 200, created.text);
    await sqlQuery(berth, 'update identity_providers set issuer = $1 where uid = $2', [trap.url, created.json.uid]);
    const r = await rest(berth.url, 'POST', '/sts/login', {
      body: {
        identityProvider: created.json.uid,
        code: 'code',
        codeVerifier: 'v'.repeat(43),
        redirectUri: 'http://127.0.0.1/callback',
        nonce: 'n'.repeat(16),
      },
    });
    assert.equal(r.status, 503, r.text);
    assert.equal(trap.connections(), 0, 'nothing was contacted');
  });
});

describe('issuer fetches with --allow-insecure-issuers', () => {
  let berth: Berth;
  let token: string;
  let keys: Trap;
  let trap: Trap;
  before(async () => {
    berth = await startBerth({ extraArgs: ['--allow-insecure-issuers'] });
    token = ownerToken(berth.credentialsFile);
    keys = await trapIssuer();
    trap = await trapIssuer(keys.url);
  });
  after(async () => {
    await berth.stop();
    await Promise.all([trap.close(), keys.close()]);
  });

  it('takes the keys of an exactly named issuer only from its own origin', async () => {
    const uid = await identity(berth, token, { issuer: trap.url, subject: 'repo:acme/app' });
    const r = await exchange(berth, await trap.sign('repo:acme/app', berth.url), uid);
    assert.equal(r.status, 403, r.text);
    assert.deepEqual(trap.requests, ['/.well-known/openid-configuration'], 'the discovery document was read');
    assert.equal(keys.connections(), 0, 'the JWKS on another origin was not fetched');
  });

  it('still refuses metadata, link-local and plain http to other hosts', async () => {
    for (const issuer of ['https://169.254.169.254', 'https://[fe80::1]', 'https://[::ffff:0:a9fe:a9fe]', 'http://10.0.0.1', 'https://[2001::1]']) {
      const r = await rest(berth.url, 'POST', `/iam/v2/identities/${berth.orgUid}`, {
        token,
        body: { name: 'internal', claimMatch: { issuer, subject: 's' } },
      });
      assert.equal(r.status, 400, `${issuer}: ${r.text}`);
    }
    assert.equal((await identity(berth, token, { issuer: 'https://10.0.0.1', subject: 's' })).length > 0, true, 'a private address is allowed with the flag');
  });
});

// /sts/exchange under hostile input: claimMatch patterns run in linear time
// and only RE2 patterns are stored, an unverified token cannot make Berth
// contact arbitrary URLs (see also sts-outbound.test.ts), tokens without exp are refused, and a static-key
// assertion is exchanged once — on any instance of a shared database.
import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { exportJWK, generateKeyPair, SignJWT, type JWTPayload } from 'jose';
import { dropDatabase, freshDatabase, startBerth, usingPostgres, type Berth, type StartOptions } from '../harness/berth-process.js';
import { ownerToken, rest } from '../harness/api-client.js';

type Key = Awaited<ReturnType<typeof generateKeyPair>>['privateKey'];

/** A local OIDC issuer serving discovery and keys, counting every request it gets. */
async function fakeIssuer() {
  const { privateKey, publicKey } = await generateKeyPair('RS256');
  const jwk = { ...(await exportJWK(publicKey)), kid: 'ext', alg: 'RS256', use: 'sig' };
  const requests: string[] = [];
  const server = http.createServer((req, res) => {
    requests.push(req.url ?? '');
    res.setHeader('content-type', 'application/json');
    if (req.url === '/.well-known/openid-configuration') res.end(JSON.stringify({ issuer: url, jwks_uri: `${url}/jwks` }));
    else if (req.url === '/jwks') res.end(JSON.stringify({ keys: [jwk] }));
    else res.writeHead(404).end('{}');
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  /** An ID token signed by this issuer (or by `key`), with exp unless `exp` is false. */
  const sign = (claims: JWTPayload & { sub: string }, opts: { iss?: string; aud: string; exp?: boolean; key?: Key }) => {
    const jwt = new SignJWT(claims)
      .setProtectedHeader({ alg: 'RS256', kid: 'ext' })
      .setIssuer(opts.iss ?? url)
      .setAudience(opts.aud)
      .setIssuedAt();
    if (opts.exp !== false) jwt.setExpirationTime('5m');
    return jwt.sign(opts.key ?? privateKey);
  };
  return { url, requests, sign, close: () => new Promise((r) => server.close(r)) };
}

/** Starts Berth; stopping kills it if a blocked event loop ignores SIGTERM (the bug under test). */
async function startKillable(opts: StartOptions = {}) {
  const berth = await startBerth(opts);
  const stop = async () => {
    const kill = setTimeout(() => berth.process.kill('SIGKILL'), 10_000);
    await berth.stop();
    clearTimeout(kill);
  };
  return { berth, token: ownerToken(berth.credentialsFile, berth.url), stop };
}

async function createIdentity(berth: Berth, token: string, body: object) {
  const r = await rest(berth.url, 'POST', `/iam/v2/identities/${berth.orgUid}`, {
    token,
    body: { name: `id-${Math.random().toString(16).slice(2)}`, ...body },
  });
  assert.equal(r.status, 200, r.text);
  return r.json.uid as string;
}

function exchangeAt(base: string, identity: string, assertion: string, timeoutMs = 5000) {
  return fetch(`${base}/sts/exchange?identity=${encodeURIComponent(identity)}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${assertion}` },
    signal: AbortSignal.timeout(timeoutMs),
  }).then(async (r) => ({ status: r.status, text: await r.text() }));
}

async function staticIdentity(berth: Berth, token: string) {
  const { privateKey, publicKey } = await generateKeyPair('ES256');
  const pub = { ...(await exportJWK(publicKey)), kid: 'k1', alg: 'ES256' };
  const subject = `svc-${Math.random().toString(16).slice(2)}`;
  const uid = await createIdentity(berth, token, { staticKeys: { issuer: 'https://ci.example', subject, issuerKeys: JSON.stringify({ keys: [pub] }) } });
  const assertion = (audience: string, opts: { exp?: boolean; jti?: string } = {}) => {
    const jwt = new SignJWT(opts.jti ? { jti: opts.jti } : {})
      .setProtectedHeader({ alg: 'ES256', kid: 'k1' })
      .setIssuer('https://ci.example')
      .setSubject(subject)
      .setAudience(audience)
      .setIssuedAt();
    if (opts.exp !== false) jwt.setExpirationTime('5m');
    return jwt.sign(privateKey);
  };
  return { uid, assertion };
}

const detail = (body: { details: { '@type': string }[] }, type: string) =>
  // biome-ignore lint/suspicious/noExplicitAny: error details are read as loose JSON in assertions
  body.details.find((d) => d['@type'] === `type.googleapis.com/google.rpc.${type}`) as any;

/** A Berth of its own and a fake external issuer for the enclosing suite. */
function useServerAndIssuer(set: (berth: Berth, token: string, ext: Awaited<ReturnType<typeof fakeIssuer>>) => void): void {
  let stop: (() => Promise<void>) | undefined;
  let ext: Awaited<ReturnType<typeof fakeIssuer>> | undefined;
  before(async () => {
    // The fake issuer is on loopback.
    const started = await startKillable({ extraArgs: ['--allow-insecure-issuers'] });
    stop = started.stop;
    ext = await fakeIssuer();
    set(started.berth, started.token, ext);
  });
  after(async () => {
    await stop?.();
    await ext?.close();
  });
}

// Its own server: on a backtracking engine this case blocks the server for hours.
describe('claim patterns under hostile input', () => {
  let berth: Berth;
  let token: string;
  let ext: Awaited<ReturnType<typeof fakeIssuer>>;
  useServerAndIssuer((b, t, e) => {
    [berth, token, ext] = [b, t, e];
  });

  it('matches catastrophic patterns in linear time without holding up other requests', async () => {
    const bySubject = await createIdentity(berth, token, { claimMatch: { issuer: ext.url, subjectPattern: '(a+)+$' } });
    const byIssuer = await createIdentity(berth, token, { claimMatch: { issuerPattern: '(h+)+$', subject: 'x' } });
    const warm = await exchangeAt(berth.url, bySubject, await ext.sign({ sub: 'aaaa' }, { aud: berth.url }));
    assert.equal(warm.status, 200, warm.text);
    // 40 characters: a backtracking engine needs about 2^40 steps for each of these.
    const evil = `${'a'.repeat(40)}!`;
    const { privateKey: forger } = await generateKeyPair('RS256');
    const cases = [
      exchangeAt(berth.url, bySubject, await ext.sign({ sub: evil }, { aud: berth.url })),
      exchangeAt(berth.url, bySubject, await ext.sign({ sub: evil }, { aud: berth.url, key: forger })),
      exchangeAt(berth.url, byIssuer, await ext.sign({ sub: 'x' }, { iss: `${'h'.repeat(40)}!`, aud: berth.url })),
    ];
    const started = Date.now();
    const [results, health] = await Promise.all([Promise.all(cases), fetch(`${berth.url}/healthz`, { signal: AbortSignal.timeout(5000) })]);
    assert.deepEqual(
      results.map((r) => r.status),
      [403, 403, 403],
    );
    assert.equal(health.status, 200, 'another request is answered meanwhile');
    assert.ok(Date.now() - started < 1000, `took ${Date.now() - started} ms`);
  });
});

describe('token exchange hardening', () => {
  let berth: Berth;
  let token: string;
  let ext: Awaited<ReturnType<typeof fakeIssuer>>;
  useServerAndIssuer((b, t, e) => {
    [berth, token, ext] = [b, t, e];
  });

  it('refuses patterns RE2 does not accept, on create and on update', async () => {
    const post = (claimMatch: object) => rest(berth.url, 'POST', `/iam/v2/identities/${berth.orgUid}`, { token, body: { name: 'p', claimMatch } });
    const backref = await post({ issuer: ext.url, subjectPattern: '(a)\\1' });
    assert.equal(backref.status, 400, backref.text);
    assert.deepEqual(
      detail(backref.json, 'BadRequest').fieldViolations.map((v: { field: string }) => v.field),
      ['claim_match.subject_pattern'],
    );
    const lookahead = await post({ issuer: ext.url, subject: 's', claimPatterns: { ref: '(?=a)a' } });
    assert.equal(lookahead.status, 400, lookahead.text);
    assert.deepEqual(
      detail(lookahead.json, 'BadRequest').fieldViolations.map((v: { field: string }) => v.field),
      ['claim_match.claim_patterns.ref'],
    );
    const long = await post({ issuer: ext.url, subjectPattern: 'a'.repeat(513) });
    assert.equal(long.status, 400, long.text);
    const uid = await createIdentity(berth, token, { claimMatch: { issuer: ext.url, subjectPattern: 'repo:acme/.*' } });
    const patched = await rest(berth.url, 'PATCH', `/iam/v2/identities/${uid}`, {
      token,
      body: { claimMatch: { issuer: ext.url, subject: 's', audiencePattern: '(?<=a)b' } },
    });
    assert.equal(patched.status, 400, patched.text);
    assert.deepEqual(
      detail(patched.json, 'BadRequest').fieldViolations.map((v: { field: string }) => v.field),
      ['claim_match.audience_pattern'],
    );
  });

  it('refuses an external token without exp, and accepts one with exp more than once', async () => {
    const uid = await createIdentity(berth, token, { claimMatch: { issuer: ext.url, subject: 'repo:acme/app' } });
    const noExp = await exchangeAt(berth.url, uid, await ext.sign({ sub: 'repo:acme/app' }, { aud: berth.url, exp: false }));
    assert.equal(noExp.status, 403, noExp.text);
    // CI jobs reuse one ID token across steps: external tokens are not single use.
    const idToken = await ext.sign({ sub: 'repo:acme/app' }, { aud: berth.url });
    for (let i = 0; i < 2; i++) {
      const ok = await exchangeAt(berth.url, uid, idToken);
      assert.equal(ok.status, 200, ok.text);
    }
  });

  it('refuses a static assertion without exp', async () => {
    const id = await staticIdentity(berth, token);
    const r = await exchangeAt(berth.url, id.uid, await id.assertion(berth.url, { exp: false }));
    assert.equal(r.status, 403, r.text);
  });

  it('exchanges a static assertion once, and a jti once', async () => {
    const id = await staticIdentity(berth, token);
    const assertion = await id.assertion(berth.url);
    assert.equal((await exchangeAt(berth.url, id.uid, assertion)).status, 200);
    const replay = await exchangeAt(berth.url, id.uid, assertion);
    assert.equal(replay.status, 403, replay.text);
    assert.equal(JSON.parse(replay.text).code, 7);
    // Without identity= the candidate is found by issuer and subject: still refused.
    const found = await rest(berth.url, 'POST', '/sts/exchange', { headers: { authorization: `Bearer ${assertion}` } });
    assert.equal(found.status, 403, found.text);
    assert.equal((await exchangeAt(berth.url, id.uid, await id.assertion(berth.url))).status, 200, 'a new assertion is accepted');
    assert.equal((await exchangeAt(berth.url, id.uid, await id.assertion(berth.url, { jti: 'run-1' }))).status, 200);
    assert.equal((await exchangeAt(berth.url, id.uid, await id.assertion(berth.url, { jti: 'run-1' }))).status, 403, 'a new assertion reusing a jti');
  });
});

describe('token exchange with --allow-insecure-issuers', () => {
  let berth: Berth;
  let token: string;
  let stop: () => Promise<void>;
  let ext: Awaited<ReturnType<typeof fakeIssuer>>;
  before(async () => {
    ({ berth, token, stop } = await startKillable({ extraArgs: ['--allow-insecure-issuers'] }));
    ext = await fakeIssuer();
  });
  after(async () => {
    await stop();
    await ext.close();
  });

  it('accepts a loopback issuer matched by a pattern, checking its signature first', async () => {
    const uid = await createIdentity(berth, token, { claimMatch: { issuerPattern: 'http://127\\.0\\.0\\.1:\\d+', subjectPattern: 'repo:acme/.*' } });
    const ok = await exchangeAt(berth.url, uid, await ext.sign({ sub: 'repo:acme/app' }, { aud: berth.url }));
    assert.equal(ok.status, 200, ok.text);
    const { privateKey: forger } = await generateKeyPair('RS256');
    const forged = await exchangeAt(berth.url, uid, await ext.sign({ sub: 'repo:acme/app' }, { aud: berth.url, key: forger }));
    assert.equal(forged.status, 403, forged.text);
  });

  it('contacts no issuer with a query or fragment', async () => {
    const uid = await createIdentity(berth, token, { claimMatch: { issuerPattern: 'http://127\\.0\\.0\\.1:\\d+/.*', subject: 'x' } });
    for (const iss of [`${ext.url}/internal/admin?x=1`, `${ext.url}/internal/admin#x`]) {
      const r = await exchangeAt(berth.url, uid, await ext.sign({ sub: 'x' }, { iss, aud: berth.url }));
      assert.equal(r.status, 403, r.text);
    }
    assert.deepEqual(
      ext.requests.filter((u) => u.startsWith('/internal')),
      [],
    );
  });
});

describe('single-use assertions across instances', () => {
  it('refuses on a second instance an assertion the first one accepted', async () => {
    const databaseUrl = await freshDatabase();
    const publicUrl = 'http://berth.test';
    // On PostgreSQL each instance has its own data dir; on SQLite they share the file.
    const shared = mkdtempSync(join(tmpdir(), 'berth-sts-'));
    const dirs = usingPostgres() ? [mkdtempSync(join(tmpdir(), 'berth-sts-a-')), mkdtempSync(join(tmpdir(), 'berth-sts-b-'))] : [shared, shared];
    const a = await startBerth({ databaseUrl, dataDir: dirs[0], publicUrl });
    // Sharing the SQLite file's directory, only the first serves the registry (one --data serves one registry).
    const b = await startBerth({ databaseUrl, dataDir: dirs[1], publicUrl, extraArgs: usingPostgres() ? [] : ['--registry-listen', 'off'] });
    try {
      const token = ownerToken(a.credentialsFile, a.url);
      const id = await staticIdentity(a, token);
      const assertion = await id.assertion(publicUrl);
      const first = await exchangeAt(a.url, id.uid, assertion);
      assert.equal(first.status, 200, first.text);
      const second = await exchangeAt(b.url, id.uid, assertion);
      assert.equal(second.status, 403, second.text);
    } finally {
      await Promise.all([a.stop(), b.stop()]);
      await dropDatabase(databaseUrl);
    }
  });
});

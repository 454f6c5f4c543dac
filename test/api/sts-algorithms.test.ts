// External ID tokens of every algorithm Berth accepts verify (RSA PKCS#1 and
// PSS, ECDSA on three curves, EdDSA), each under the key its header names and
// of the type its algorithm needs; a header Berth does not understand (crit),
// a key too weak for its algorithm and a key of another type are refused.
// (Expired, not yet valid, wrong issuer/audience/key, alg none, HMAC and
// tampered tokens: sts-federation.test.ts.)
import assert from 'node:assert/strict';
import { generateKeyPairSync, sign } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { exportJWK, generateKeyPair, type JWK, SignJWT } from 'jose';
import { rest } from '../harness/api-client.js';
import { type Berth, useBerth } from '../harness/berth-process.js';

type PrivateKey = Awaited<ReturnType<typeof generateKeyPair>>['privateKey'];

const ALGORITHMS = ['RS256', 'RS512', 'PS256', 'PS384', 'ES256', 'ES384', 'ES512', 'EdDSA'] as const;

/** An issuer whose JWKS holds one key per algorithm (kid = the algorithm), and a 1024-bit RSA key (kid "weak"). */
async function multiKeyIssuer() {
  const keys = new Map<string, PrivateKey>();
  const jwks: JWK[] = [];
  for (const alg of ALGORITHMS) {
    const pair = await generateKeyPair(alg, { extractable: true });
    keys.set(alg, pair.privateKey);
    jwks.push({ ...(await exportJWK(pair.publicKey)), kid: alg, alg, use: 'sig' });
  }
  // jose will not make or sign with an RSA key under 2048 bits: node:crypto does.
  const weak = generateKeyPairSync('rsa', { modulusLength: 1024 });
  jwks.push({ ...(weak.publicKey.export({ format: 'jwk' }) as JWK), kid: 'weak', alg: 'RS256', use: 'sig' });
  const server = http.createServer((req, res) => {
    res.setHeader('content-type', 'application/json');
    if (req.url === '/.well-known/openid-configuration') res.end(JSON.stringify({ issuer: url, jwks_uri: `${url}/jwks` }));
    else if (req.url === '/jwks') res.end(JSON.stringify({ keys: jwks }));
    else res.writeHead(404).end('{}');
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const claims = (sub: string, aud: string) => ({ iss: url, sub, aud, iat: Math.floor(Date.now() / 1000), exp: Math.floor(Date.now() / 1000) + 300 });
  return {
    url,
    /** A token signed with the key of `alg`, under a header with `header` added. */
    sign: (alg: (typeof ALGORITHMS)[number], sub: string, aud: string, header: Record<string, unknown> = {}) =>
      new SignJWT(claims(sub, aud)).setProtectedHeader({ alg, kid: alg, ...header }).sign(keys.get(alg)!, { crit: { 'x-berth': true } }),
    /** An RS256 token signed with the 1024-bit key. */
    signWeak: (sub: string, aud: string) => {
      const b = (o: object) => Buffer.from(JSON.stringify(o)).toString('base64url');
      const input = `${b({ alg: 'RS256', kid: 'weak' })}.${b(claims(sub, aud))}`;
      return `${input}.${sign('sha256', Buffer.from(input), weak.privateKey).toString('base64url')}`;
    },
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}

describe('external token algorithms', () => {
  let berth: Berth;
  let owner: string;
  let idp: Awaited<ReturnType<typeof multiKeyIssuer>>;
  let uid: string;
  const SUB = 'repo:acme/app:ref:refs/heads/main';
  useBerth(
    (b, t) => {
      berth = b;
      owner = t;
    },
    { extraArgs: ['--allow-insecure-issuers'] },
  );
  before(async () => {
    idp = await multiKeyIssuer();
    const r = await rest(berth.url, 'POST', `/iam/v2/identities/${berth.orgUid}`, {
      token: owner,
      body: { name: 'ci-algorithms', claimMatch: { issuer: idp.url, subject: SUB } },
    });
    assert.equal(r.status, 200, r.text);
    uid = r.json.uid as string;
  });
  after(() => idp.close());

  const exchange = (idToken: string) =>
    fetch(`${berth.url}/sts/exchange?identity=${uid}`, { method: 'POST', headers: { authorization: `Bearer ${idToken}` } }).then(async (r) => ({
      status: r.status,
      text: await r.text(),
    }));

  it('accepts a token of every asymmetric algorithm, under its own key', async () => {
    for (const alg of ALGORITHMS) {
      const r = await exchange(await idp.sign(alg, SUB, berth.url));
      assert.equal(r.status, 200, `${alg}: ${r.text}`);
    }
  });

  it('refuses a crit header, an RSA key under 2048 bits, a key of another type, and a signature of another algorithm', async () => {
    const crit = await exchange(await idp.sign('RS256', SUB, berth.url, { crit: ['x-berth'], 'x-berth': 1 }));
    assert.equal(crit.status, 403, crit.text);
    const weak = await exchange(idp.signWeak(SUB, berth.url));
    assert.equal(weak.status, 403, weak.text);
    // An ES256 header naming the RSA key: the JWKS has no EC key under that kid.
    const es = (await idp.sign('ES256', SUB, berth.url)).split('.');
    const confused = `${Buffer.from(JSON.stringify({ alg: 'ES256', kid: 'RS256' })).toString('base64url')}.${es[1]}.${es[2]}`;
    assert.equal((await exchange(confused)).status, 403);
    // A PS256 signature presented as RS256 under the PS256 key's kid, and as RS256 under the RS256 key.
    const ps = (await idp.sign('PS256', SUB, berth.url)).split('.');
    for (const kid of ['PS256', 'RS256']) {
      const relabelled = `${Buffer.from(JSON.stringify({ alg: 'RS256', kid })).toString('base64url')}.${ps[1]}.${ps[2]}`;
      assert.equal((await exchange(relabelled)).status, 403, kid);
    }
  });
});

// Berth's own tokens always carry exp; one without exp is refused even when
// its signature is good (jose alone would accept it forever).
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { exportJWK, generateKeyPair, importJWK, SignJWT, type JWK } from 'jose';
import { Issuer } from '../../src/auth/issuer.js';
import { openStore, type Store } from '../../src/store/store.js';
import { transact } from '../../src/store/transact.js';

describe('issuer token verification', () => {
  const url = 'http://berth.test';
  const dataDir = mkdtempSync(join(tmpdir(), 'berth-issuer-'));
  let store: Store;
  let issuer: Issuer;
  let sign: (exp: boolean) => Promise<string>;
  before(async () => {
    store = await openStore({ dataDir });
    issuer = await Issuer.open(store, url);
    const row = await store.db.selectFrom('signing_keys').selectAll().executeTakeFirstOrThrow();
    const key = await importJWK(JSON.parse(row.private_jwk) as JWK, row.algorithm);
    sign = (exp) => {
      const jwt = new SignJWT({}).setProtectedHeader({ alg: row.algorithm, kid: row.kid }).setIssuer(url).setSubject('someone').setAudience(url).setIssuedAt();
      if (exp) jwt.setExpirationTime('5m');
      return jwt.sign(key);
    };
  });
  after(async () => {
    await store.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('signs new tokens with an ES256 key', async () => {
    const { token } = await issuer.mint('someone', url);
    assert.equal(JSON.parse(Buffer.from(token.split('.')[0], 'base64url').toString()).alg, 'ES256');
  });

  it('refuses a correctly signed token without exp', async () => {
    await assert.rejects(issuer.verify(await sign(false), url), /exp/);
    assert.equal((await issuer.verify(await sign(true), url)).subject, 'someone');
  });
});

describe('an RS256 key made before keys were ES256', () => {
  it('keeps signing and verifying after an upgrade', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'berth-issuer-rs-'));
    const store = await openStore({ dataDir: dir });
    try {
      const url = 'http://berth.test';
      const { privateKey, publicKey } = await generateKeyPair('RS256', { modulusLength: 2048, extractable: true });
      const kid = 'old-rsa';
      const pub = { ...(await exportJWK(publicKey)), kid, alg: 'RS256', use: 'sig' };
      const priv = { ...(await exportJWK(privateKey)), kid, alg: 'RS256' };
      const row = { kid, algorithm: 'RS256', private_jwk: JSON.stringify(priv), public_jwk: JSON.stringify(pub), create_time: '2020-01-01T00:00:00.000Z' };
      await transact(store, (tx) => tx.insertInto('signing_keys').values(row).execute());
      const issuer = await Issuer.open(store, url);
      const { token } = await issuer.mint('someone', url);
      assert.equal(JSON.parse(Buffer.from(token.split('.')[0], 'base64url').toString()).alg, 'RS256');
      assert.equal((await issuer.verify(token, url)).subject, 'someone');
    } finally {
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

// Berth's own tokens always carry exp; one without exp is refused even when
// its signature is good (jose alone would accept it forever).
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { importJWK, SignJWT, type JWK } from 'jose';
import { Issuer } from '../../src/auth/issuer.js';
import { openStore, type Store } from '../../src/store/store.js';

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
    const key = await importJWK(JSON.parse(row.private_jwk) as JWK, 'RS256');
    sign = (exp) => {
      const jwt = new SignJWT({}).setProtectedHeader({ alg: 'RS256', kid: row.kid }).setIssuer(url).setSubject('someone').setAudience(url).setIssuedAt();
      if (exp) jwt.setExpirationTime('5m');
      return jwt.sign(key);
    };
  });
  after(async () => {
    await store.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('refuses a correctly signed token without exp', async () => {
    await assert.rejects(issuer.verify(await sign(false), url), /exp/);
    assert.equal((await issuer.verify(await sign(true), url)).subject, 'someone');
  });
});

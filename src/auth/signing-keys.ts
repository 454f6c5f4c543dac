// The issuer's signing keys live in the database so every instance signs with
// the same key and verifies every other instance's tokens. The oldest key signs;
// all keys are published in the JWKS.
import { randomUUID } from 'node:crypto';
import { exportJWK, generateKeyPair, importJWK, type JWK, type CryptoKey } from 'jose';
import { nowIso } from '../core/clock.js';
import type { Store } from '../store/store.js';

export const ALGORITHM = 'RS256';

export interface SigningKey {
  kid: string;
  privateKey: CryptoKey;
  publicJwk: JWK;
}

export interface KeyRing {
  signing: SigningKey;
  publicKeys: JWK[];
}

async function readAll(store: Store) {
  return store.db.selectFrom('signing_keys').selectAll().orderBy('create_time').orderBy('kid').execute();
}

export async function loadKeyRing(store: Store): Promise<KeyRing> {
  let rows = await readAll(store);
  if (rows.length === 0) {
    const { privateKey, publicKey } = await generateKeyPair(ALGORITHM, { modulusLength: 2048, extractable: true });
    const kid = randomUUID();
    const pub = { ...(await exportJWK(publicKey)), kid, alg: ALGORITHM, use: 'sig' };
    const priv = { ...(await exportJWK(privateKey)), kid, alg: ALGORITHM };
    await store.db
      .insertInto('signing_keys')
      .values({ kid, algorithm: ALGORITHM, private_jwk: JSON.stringify(priv), public_jwk: JSON.stringify(pub), create_time: nowIso() })
      .execute();
    rows = await readAll(store); // another instance may have raced us; the oldest wins everywhere
  }
  const first = rows[0];
  const privateKey = (await importJWK(JSON.parse(first.private_jwk) as JWK, ALGORITHM)) as CryptoKey;
  return {
    signing: { kid: first.kid, privateKey, publicJwk: JSON.parse(first.public_jwk) as JWK },
    publicKeys: rows.map((r) => JSON.parse(r.public_jwk) as JWK),
  };
}

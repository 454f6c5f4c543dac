// The issuer's signing keys live in the database so every instance signs with
// the same key and verifies every other instance's tokens. The newest live key
// signs; every live key is published in the JWKS and verifies. A key is live
// until its retire time (berth admin signing-keys: signing-key-rotation.ts).
// With a secrets key, private JWKs are stored sealed (secret-sealing.ts);
// plaintext ones from before are sealed on start.
import { createPrivateKey, type JsonWebKey, randomUUID, type KeyObject } from 'node:crypto';
import { exportJWK, generateKeyPair, type JWK } from 'jose';
import { nowIso } from '../core/clock.js';
import type { Store } from '../store/store.js';
import { transact, type Tx } from '../store/transact.js';
import type { JwtSigningKey } from './jwt-sign.js';
import { isSealed, resealed, seal, unseal } from './secret-sealing.js';

/**
 * The algorithm of keys made now. ES256: signing costs a fraction of what
 * RSA-2048 costs (docs/performance.md), and every token exchange signs. Keys made before
 * (RS256) keep their own algorithm, stored with them, and keep verifying.
 */
export const ALGORITHM = 'ES256';
/** Every algorithm a Berth key may have: what verification accepts. */
export const KEY_ALGORITHMS = ['ES256', 'RS256'] as const;

export interface KeyRing {
  /** The newest live key: the one that signs. */
  signing: JwtSigningKey;
  /** Every live key, the signing one last: what verifies (the refresh-token MACs too). */
  keys: JwtSigningKey[];
  publicKeys: JWK[];
}

interface KeyRow {
  kid: string;
  private_jwk: string;
  public_jwk: string;
}

/** The keys not retired by `now`, oldest first. */
const liveKeys = (db: Store['db'], now: string) =>
  db
    .selectFrom('signing_keys')
    .where((eb) => eb.or([eb('retire_time', 'is', null), eb('retire_time', '>', now)]))
    .orderBy('create_time')
    .orderBy('kid');

/** The live keys' rows (not retired by now), oldest first. */
export function liveKeyRows(db: Store['db'], now = nowIso()) {
  return liveKeys(db, now).selectAll().execute();
}

/** The live keys' ids only, in the same order: how a server sees whether its ring is still current. */
export function liveKeyIds(db: Store['db'], now = nowIso()) {
  return liveKeys(db, now).select('kid').execute();
}

const readAll = (store: Store) => liveKeyRows(store.db);

export const signingKeyContext = (kid: string) => `berth signing key ${kid}`;
const context = signingKeyContext;

/** A new key pair as the row to insert, its private JWK sealed when there is a secrets key. */
export async function newKeyRow(secrets: KeyObject | undefined) {
  const { privateKey, publicKey } = await generateKeyPair(ALGORITHM, { extractable: true });
  const kid = randomUUID();
  const pub = { ...(await exportJWK(publicKey)), kid, alg: ALGORITHM, use: 'sig' };
  const priv = JSON.stringify({ ...(await exportJWK(privateKey)), kid, alg: ALGORITHM });
  return {
    kid,
    algorithm: ALGORITHM,
    private_jwk: secrets ? seal(secrets, priv, context(kid)) : priv,
    public_jwk: JSON.stringify(pub),
    create_time: nowIso(),
  };
}

/** Every row's private JWK as text; throws, naming the fix, when it cannot be read with `secrets`. */
export function openAll(rows: readonly KeyRow[], secrets: KeyObject | undefined): Map<string, string> {
  const out = new Map<string, string>();
  for (const r of rows) {
    if (!isSealed(r.private_jwk)) {
      out.set(r.kid, r.private_jwk);
      continue;
    }
    if (!secrets) throw new Error('the signing keys in the database are encrypted: start berth with the same --secrets-key-file or BERTH_SECRETS_KEY');
    const text = unseal(secrets, r.private_jwk, context(r.kid));
    if (text === undefined) throw new Error('the secrets key does not decrypt the signing keys in the database: check --secrets-key-file or BERTH_SECRETS_KEY');
    out.set(r.kid, text);
  }
  return out;
}

/** Seals rows stored in plaintext; compare-and-set, so instances starting together do not overwrite each other. */
async function sealPlaintext(store: Store, rows: readonly KeyRow[], secrets: KeyObject): Promise<void> {
  for (const r of rows) {
    if (isSealed(r.private_jwk)) continue;
    const sealed = seal(secrets, r.private_jwk, context(r.kid));
    await transact(store, (tx) =>
      tx.updateTable('signing_keys').set({ private_jwk: sealed }).where('kid', '=', r.kid).where('private_jwk', '=', r.private_jwk).execute(),
    );
  }
}

export async function loadKeyRing(store: Store, secrets?: KeyObject): Promise<KeyRing> {
  let rows = await readAll(store);
  if (rows.length === 0) {
    const row = await newKeyRow(secrets);
    await transact(store, (tx) => tx.insertInto('signing_keys').values(row).execute());
    rows = await readAll(store); // another instance may have raced us; every instance signs with the same (the newest)
  }
  const privateJwks = openAll(rows, secrets);
  if (secrets) await sealPlaintext(store, rows, secrets);
  // node:crypto keys: the issuer signs with node:crypto (jwt-sign.ts).
  const keys = rows.map((r) => ({
    kid: r.kid,
    algorithm: r.algorithm,
    privateKey: createPrivateKey({ key: JSON.parse(privateJwks.get(r.kid)!) as JsonWebKey, format: 'jwk' }),
  }));
  return {
    signing: keys[keys.length - 1],
    keys,
    publicKeys: rows.map((r) => JSON.parse(r.public_jwk) as JWK),
  };
}

/** Seals every signing key's private JWK (retiring ones too) with `to` instead of `from`, in `tx`; returns how many. */
export async function resealSigningKeys(tx: Tx, from: KeyObject | undefined, to: KeyObject): Promise<number> {
  const rows = await tx.selectFrom('signing_keys').select(['kid', 'private_jwk']).execute();
  for (const r of rows) {
    const sealed = resealed(r.private_jwk, from, to, context(r.kid), `the signing key ${r.kid}`);
    await tx.updateTable('signing_keys').set({ private_jwk: sealed }).where('kid', '=', r.kid).execute();
  }
  return rows.length;
}

// Verification of an external issuer's JWT (an OIDC ID token presented at
// /sts/exchange) with node:crypto's one-shot verify, on the event loop. jose
// verifies through WebCrypto: a job handed to the thread pool and back for
// every token, which made an RS256 check cost a server core ~100 µs under load
// where node:crypto's takes ~25 µs (bench:sts), and every claimMatch exchange
// verifies one (and the key goes to node:crypto as a KeyObject, an ECDSA
// signature as DER: ecdsa-signature.ts). jose still does everything around the check: it fetches,
// caches and refreshes the issuer's JWKS and picks the key for the header's
// kid and alg (only a key of the algorithm's type: no key confusion).
//
// The order is jose's: nothing of the header is used before its algorithm is
// one the caller allows, and nothing of the payload before the signature holds.
// Refused beyond jose: any `crit` header (Berth understands no extension) and
// an RSA key under 2048 bits (jose refuses those too).
import { constants, KeyObject, verify, type webcrypto } from 'node:crypto';
import type { CompactJWSHeaderParameters, JWTPayload, JWTVerifyGetKey } from 'jose';
import { joseToDer } from './ecdsa-signature.js';

interface Algorithm {
  /** The digest, or null for EdDSA (which hashes itself). */
  hash: string | null;
  /** The key types it takes (KeyObject.asymmetricKeyType). */
  keyTypes: readonly string[];
  /** EC: the curve, and the raw r‖s signature's length (RFC 7518 §3.4). */
  curve?: string;
  signatureBytes?: number;
  pss?: boolean;
}

const rsa = (hash: string): Algorithm => ({ hash, keyTypes: ['rsa'] });
const pss = (hash: string): Algorithm => ({ hash, keyTypes: ['rsa', 'rsa-pss'], pss: true });
const ALGORITHMS = new Map<string, Algorithm>([
  ['RS256', rsa('sha256')],
  ['RS384', rsa('sha384')],
  ['RS512', rsa('sha512')],
  ['PS256', pss('sha256')],
  ['PS384', pss('sha384')],
  ['PS512', pss('sha512')],
  ['ES256', { hash: 'sha256', keyTypes: ['ec'], curve: 'prime256v1', signatureBytes: 64 }],
  ['ES384', { hash: 'sha384', keyTypes: ['ec'], curve: 'secp384r1', signatureBytes: 96 }],
  ['ES512', { hash: 'sha512', keyTypes: ['ec'], curve: 'secp521r1', signatureBytes: 132 }],
  ['EdDSA', { hash: null, keyTypes: ['ed25519'] }],
  ['Ed25519', { hash: null, keyTypes: ['ed25519'] }],
]);
const RSA_MIN_BITS = 2048;
const SEGMENT = /^[A-Za-z0-9_-]+$/;

class ExternalJwtError extends Error {}

const fail = (why: string): never => {
  throw new ExternalJwtError(why);
};

/** A JSON object from a base64url segment, or a failure naming `what`. */
function objectOf(segment: string, what: string): Record<string, unknown> {
  let v: unknown;
  try {
    v = JSON.parse(Buffer.from(segment, 'base64url').toString('utf8'));
  } catch {
    return fail(`the ${what} is not JSON`);
  }
  return typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : fail(`the ${what} is not a JSON object`);
}

// jose hands out the same CryptoKey for a JWKS entry and algorithm; its KeyObject is made once.
const keyObjects = new WeakMap<object, KeyObject>();

function publicKeyOf(key: unknown): KeyObject {
  if (key instanceof KeyObject) return key;
  if (typeof key !== 'object' || key === null || (key as { type?: unknown }).type !== 'public') return fail('the issuer key is not a public key');
  let ko = keyObjects.get(key);
  if (!ko) {
    ko = KeyObject.from(key as webcrypto.CryptoKey);
    keyObjects.set(key, ko);
  }
  return ko;
}

// Keys already found to fit an algorithm (their details are read through node:crypto each time).
const fitting = new WeakMap<KeyObject, Set<Algorithm>>();

function checkKey(ko: KeyObject, alg: Algorithm): void {
  if (fitting.get(ko)?.has(alg)) return;
  if (ko.type !== 'public' || !alg.keyTypes.includes(ko.asymmetricKeyType ?? '')) fail('the key does not fit the algorithm');
  const details = ko.asymmetricKeyDetails ?? {};
  if (alg.curve !== undefined && details.namedCurve !== alg.curve) fail('the key is not on the algorithm curve');
  if (alg.keyTypes.includes('rsa') && (details.modulusLength ?? 0) < RSA_MIN_BITS) fail(`RSA keys must be at least ${RSA_MIN_BITS} bits`);
  const known = fitting.get(ko) ?? new Set<Algorithm>();
  known.add(alg);
  fitting.set(ko, known);
}

/** jose's claim checks without a clock tolerance: `iss` is `issuer`; `exp` is required, `nbf` and `iat` are numbers when present. */
function checkClaims(payload: Record<string, unknown>, issuer: string): void {
  const now = Math.floor(Date.now() / 1000);
  if (payload.iss !== issuer) fail('unexpected "iss" claim value');
  if (typeof payload.exp !== 'number') fail('"exp" claim missing or not a number');
  if ((payload.exp as number) <= now) fail('"exp" claim timestamp check failed');
  if (payload.nbf !== undefined && typeof payload.nbf !== 'number') fail('"nbf" claim must be a number');
  if (typeof payload.nbf === 'number' && payload.nbf > now) fail('"nbf" claim timestamp check failed');
  if (payload.iat !== undefined && typeof payload.iat !== 'number') fail('"iat" claim must be a number');
}

/** The verified claims of `token`, signed by a key `getKey` gives for its header with one of `algorithms`, from `issuer`; throws otherwise. */
export async function verifyExternalJwt(token: string, getKey: JWTVerifyGetKey, opts: { issuer: string; algorithms: readonly string[] }): Promise<JWTPayload> {
  const parts = token.split('.');
  if (parts.length !== 3 || !parts.every((p) => SEGMENT.test(p))) return fail('not a compact JWS');
  const [h, p, s] = parts;
  const header = objectOf(h, 'header');
  const name = header.alg;
  const alg = typeof name === 'string' && opts.algorithms.includes(name) ? ALGORITHMS.get(name) : undefined;
  if (!alg) return fail('the algorithm is not allowed');
  if (header.crit !== undefined || header.b64 !== undefined) fail('header extensions are not supported');
  const ko = publicKeyOf(await getKey(header as CompactJWSHeaderParameters, { payload: p, signature: s }));
  checkKey(ko, alg);
  const input = Buffer.from(`${h}.${p}`);
  let signature: Buffer | undefined = Buffer.from(s, 'base64url');
  // The KeyObject itself wherever the algorithm allows: an options object costs node:crypto a thrown and caught key check (ecdsa-signature.ts).
  if (alg.signatureBytes !== undefined) signature = joseToDer(signature, alg.signatureBytes / 2);
  const key = alg.pss ? { key: ko, padding: constants.RSA_PKCS1_PSS_PADDING, saltLength: constants.RSA_PSS_SALTLEN_DIGEST } : ko;
  if (signature === undefined || !verify(alg.hash, input, key, signature)) fail('signature verification failed');
  const payload = objectOf(p, 'payload');
  checkClaims(payload, opts.issuer);
  return payload as JWTPayload;
}

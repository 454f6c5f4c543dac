// The issuer's JWT signing, with node:crypto and synchronously. jose signs
// through WebCrypto: an async job per token, ~140 µs of CPU for ES256 on the
// reference machine, where node:crypto's DER signature takes ~25 µs (and its
// own 'ieee-p1363' output ~60 µs, hence ecdsa-signature.ts). Every token
// exchange and every webhook delivery signs. Verification, of Berth's own
// tokens and of external ones, is jose's.
import { type KeyObject, sign } from 'node:crypto';
import { derToJose } from './ecdsa-signature.js';

/** A private key and what goes in the JWS header for it. */
export interface JwtSigningKey {
  kid: string;
  /** ES256 or RS256 (signing-keys.ts KEY_ALGORITHMS). */
  algorithm: string;
  privateKey: KeyObject;
}

/** A JWS ECDSA signature is r‖s, each left-padded to the curve's size (RFC 7518 §3.4). */
const ECDSA_PART_BYTES = new Map([['ES256', 32]]);

const headers = new WeakMap<JwtSigningKey, string>();

/** The compact JWS of `payload` (a JWT), signed by `key`. */
export function signJwt(key: JwtSigningKey, payload: Record<string, unknown>): string {
  let header = headers.get(key);
  if (header === undefined) {
    header = Buffer.from(JSON.stringify({ alg: key.algorithm, kid: key.kid, typ: 'JWT' })).toString('base64url');
    headers.set(key, header);
  }
  const input = `${header}.${Buffer.from(JSON.stringify(payload)).toString('base64url')}`;
  const ecdsaPart = ECDSA_PART_BYTES.get(key.algorithm);
  if (key.algorithm !== 'RS256' && ecdsaPart === undefined) throw new Error(`signing with ${key.algorithm} is not supported`);
  const der = sign('sha256', Buffer.from(input), key.privateKey);
  const signature = ecdsaPart === undefined ? der : derToJose(der, ecdsaPart);
  return `${input}.${signature.toString('base64url')}`;
}

// The issuer's JWT signing, with node:crypto and synchronously. jose signs
// through WebCrypto: an async job per token, several times the CPU of
// node:crypto's DER signature (whose own 'ieee-p1363' output is slower too,
// hence ecdsa-signature.ts; see docs/performance.md). Every token
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

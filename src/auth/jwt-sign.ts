// The issuer's JWT signing, with node:crypto and synchronously. jose signs
// through WebCrypto: an async job per token, ~140 µs of CPU for ES256 on the
// reference machine, where node:crypto's DER signature takes ~25 µs (and its
// own 'ieee-p1363' output ~60 µs, hence the conversion below). Every token
// exchange and every webhook delivery signs. Verification stays with jose.
import { type KeyObject, sign } from 'node:crypto';

/** A private key and what goes in the JWS header for it. */
export interface JwtSigningKey {
  kid: string;
  /** ES256 or RS256 (signing-keys.ts KEY_ALGORITHMS). */
  algorithm: string;
  privateKey: KeyObject;
}

/** A JWS ECDSA signature is r‖s, each left-padded to the curve's size (RFC 7518 §3.4). */
const ECDSA_PART_BYTES = new Map([['ES256', 32]]);

/**
 * DER `SEQUENCE { INTEGER r, INTEGER s }` → r‖s of `size` bytes each. Strict:
 * anything but a well-formed signature of that size throws (node:crypto made
 * it, so that would be a bug, not input).
 */
export function derToJose(der: Buffer, size: number): Buffer {
  let at = 0;
  const fail = (): never => {
    throw new Error('malformed DER ECDSA signature');
  };
  const length = (): number => {
    const first = der[at++] ?? fail();
    if (first < 0x80) return first;
    if (first !== 0x81) fail(); // a P-256 signature's sequence is at most 72 bytes
    return der[at++] ?? fail();
  };
  const integer = (out: Buffer, offset: number): void => {
    if (der[at++] !== 0x02) fail();
    let n = length();
    if (n === 0 || at + n > der.length) fail();
    // A leading 0x00 only keeps the integer positive.
    while (n > size && der[at] === 0) {
      at++;
      n--;
    }
    if (n > size) fail();
    der.copy(out, offset + size - n, at, at + n);
    at += n;
  };
  if (der[at++] !== 0x30) fail();
  if (length() !== der.length - at) fail();
  const out = Buffer.alloc(2 * size);
  integer(out, 0);
  integer(out, size);
  if (at !== der.length) fail();
  return out;
}

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

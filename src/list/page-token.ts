// Page tokens are opaque to clients but authenticated: a MAC over the cursor,
// the query it belongs to and its expiry, keyed with a secret kept in the
// database so every instance accepts every other instance's tokens.
//
// The MAC is SHA3-256 over the key and the body, H(K || m): sound for SHA-3,
// which has no length extension (the construction KMAC formalises), and one
// call of crypto.hash, where an HMAC built a stream object per token
// (docs/performance.md). Tokens of the HMAC-SHA-256 form that releases before
// this one issued are still accepted until they expire (3 days), so a list
// paged across a rolling upgrade goes on.
import { createHmac, createSecretKey, hash, timingSafeEqual, type KeyObject } from 'node:crypto';

export const PAGE_TOKEN_TTL_MS = 3 * 24 * 60 * 60 * 1000;
const MAX_TOKEN_LENGTH = 4096;

export interface Cursor {
  /** Value of the sort column of the last row returned. */
  value: string;
  /** uid of the last row returned (tie-breaker). */
  uid: string;
}

interface Payload {
  q: string;
  v: string;
  u: string;
  x: number;
}

/** The MAC's length: 22 base64url characters, 132 bits (as long as the 16 bytes of the HMAC form). */
const MAC_CHARS = 22;

function sameMac(given: string, want: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(want);
  return a.length === b.length && timingSafeEqual(a, b);
}

export type TokenCheck = { kind: 'cursor'; cursor: Cursor } | { kind: 'expired' } | { kind: 'invalid'; reason: string };

export class PageTokens {
  /** The key in a fixed-length text form, the MAC's prefix. */
  private readonly prefix: string;
  private readonly legacyKey: KeyObject;

  constructor(
    key: Buffer,
    private readonly now: () => number = Date.now,
  ) {
    this.prefix = key.toString('base64url');
    this.legacyKey = createSecretKey(key);
  }

  /** SHA3-256(key || body), its first MAC_CHARS in base64url. */
  private mac(body: string): string {
    return hash('sha3-256', this.prefix + body, 'base64url').slice(0, MAC_CHARS);
  }

  /** The MAC of tokens issued before SHA3 (HMAC-SHA-256, 16 bytes, base64url). */
  private legacyMac(body: string): string {
    return createHmac('sha256', this.legacyKey).update(body).digest().subarray(0, 16).toString('base64url');
  }

  issue(queryFingerprint: string, cursor: Cursor): string {
    const payload: Payload = { q: queryFingerprint, v: cursor.value, u: cursor.uid, x: this.now() + PAGE_TOKEN_TTL_MS };
    const body = Buffer.from(JSON.stringify(payload)).toString('base64url');
    return `${body}.${this.mac(body)}`;
  }

  check(token: string, queryFingerprint: string): TokenCheck {
    if (token.length > MAX_TOKEN_LENGTH) return { kind: 'invalid', reason: 'page token is too long' };
    const dot = token.indexOf('.');
    if (dot <= 0) return { kind: 'invalid', reason: 'page token is malformed' };
    const body = token.slice(0, dot);
    const given = token.slice(dot + 1);
    if (!sameMac(given, this.mac(body)) && !sameMac(given, this.legacyMac(body))) {
      return { kind: 'invalid', reason: 'page token is not valid' };
    }
    let p: Payload;
    try {
      p = JSON.parse(Buffer.from(body, 'base64url').toString('utf8')) as Payload;
    } catch {
      return { kind: 'invalid', reason: 'page token is malformed' };
    }
    if (typeof p.x !== 'number' || typeof p.v !== 'string' || typeof p.u !== 'string') {
      return { kind: 'invalid', reason: 'page token is malformed' };
    }
    if (p.x <= this.now()) return { kind: 'expired' };
    if (p.q !== queryFingerprint) {
      return { kind: 'invalid', reason: 'page token belongs to a different query (filters or order_by changed)' };
    }
    return { kind: 'cursor', cursor: { value: p.v, uid: p.u } };
  }
}

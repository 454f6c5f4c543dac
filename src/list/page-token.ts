// Page tokens are opaque to clients but authenticated: a MAC over the cursor,
// the query it belongs to and its expiry, keyed with a secret kept in the
// database so every instance accepts every other instance's tokens.
import { createHmac, createSecretKey, timingSafeEqual, type KeyObject } from 'node:crypto';

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

export type TokenCheck = { kind: 'cursor'; cursor: Cursor } | { kind: 'expired' } | { kind: 'invalid'; reason: string };

export class PageTokens {
  private readonly key: KeyObject;

  constructor(
    key: Buffer,
    private readonly now: () => number = Date.now,
  ) {
    this.key = createSecretKey(key); // made once: deriving it per token was measurable
  }

  private mac(body: string): Buffer {
    return createHmac('sha256', this.key).update(body).digest().subarray(0, 16);
  }

  issue(queryFingerprint: string, cursor: Cursor): string {
    const payload: Payload = { q: queryFingerprint, v: cursor.value, u: cursor.uid, x: this.now() + PAGE_TOKEN_TTL_MS };
    const body = Buffer.from(JSON.stringify(payload)).toString('base64url');
    return `${body}.${this.mac(body).toString('base64url')}`;
  }

  check(token: string, queryFingerprint: string): TokenCheck {
    if (token.length > MAX_TOKEN_LENGTH) return { kind: 'invalid', reason: 'page token is too long' };
    const dot = token.indexOf('.');
    if (dot <= 0) return { kind: 'invalid', reason: 'page token is malformed' };
    const body = token.slice(0, dot);
    const given = Buffer.from(token.slice(dot + 1), 'base64url');
    const want = this.mac(body);
    if (given.length !== want.length || !timingSafeEqual(given, want)) {
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

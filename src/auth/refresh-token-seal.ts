// The form of a refresh token: `berth_rt_` base64url(JSON grant) `.`
// base64url(HMAC-SHA256). The grant is the chain, the generation in it, the
// identity, audience, narrowing and expiry; the MAC key is derived (HKDF) from
// the issuer's signing key, bound to its key id and to this use, so it is as
// safe as that key — sealed with it at rest when the operator gives a secrets
// key — and every instance derives the same. After a rotation the new key
// seals and every live key's MAC opens, so a token outlives a rotation until
// the key that sealed it retires. The grant is not secret from its
// holder: the token it mints carries the same claims.
import { createHmac, createSecretKey, hkdfSync, timingSafeEqual, type KeyObject } from 'node:crypto';
import type { JWTPayload } from 'jose';
import type { JwtSigningKey } from './jwt-sign.js';

/** How long a refresh token can be traded, from its issue. */
export const REFRESH_TTL_SECONDS = 7 * 24 * 3600;
export const REFRESH_TOKEN_PREFIX = 'berth_rt_';
/** The grant is bounded like the narrowing it holds (≤ 100 caps and 100 scopes), and the token fits a header. */
const SEALED = /^berth_rt_([A-Za-z0-9_-]{1,16384})\.([A-Za-z0-9_-]{43})$/;

export interface RefreshGrant {
  identityUid: string;
  audience: string;
  /** The narrowing claims the chain's tokens carry. */
  narrowing: JWTPayload;
}

/** What a token carries (short names: it travels in a header on every refresh). */
export interface SealedGrant {
  /** Chain: every token rotated from one exchange or sign in. */
  c: string;
  /** Generation: 0 for the chain's first token, one more at each rotation. */
  g: number;
  i: string;
  a: string;
  n: JWTPayload;
  /** Expiry, seconds since the epoch. */
  e: number;
}

export interface IssuedRefreshToken {
  token: string;
  expiry: Date;
}

function isSealedGrant(v: unknown): v is SealedGrant {
  if (typeof v !== 'object' || v === null) return false;
  const s = v as Record<string, unknown>;
  return (
    typeof s.c === 'string' &&
    Number.isSafeInteger(s.g) &&
    (s.g as number) >= 0 &&
    typeof s.i === 'string' &&
    typeof s.a === 'string' &&
    typeof s.n === 'object' &&
    s.n !== null &&
    !Array.isArray(s.n) &&
    Number.isSafeInteger(s.e)
  );
}

/** The MAC key derived from one signing key. */
function macKey(signing: JwtSigningKey): KeyObject {
  const { d } = signing.privateKey.export({ format: 'jwk' });
  if (typeof d !== 'string') throw new Error('the signing key has no private part');
  return createSecretKey(Buffer.from(hkdfSync('sha256', Buffer.from(d, 'base64url'), signing.kid, 'berth refresh tokens v1', 32)));
}

export class RefreshTokenSeal {
  private readonly key: KeyObject;
  /** Every live signing key's MAC key: a token sealed before a rotation opens until its key retires. */
  private readonly opening: KeyObject[];

  /** Seals with `signing`'s MAC key; opens what any of `live` (which holds `signing`) sealed. */
  constructor(signing: JwtSigningKey, live: readonly JwtSigningKey[] = [signing]) {
    this.key = macKey(signing);
    this.opening = [this.key, ...live.filter((k) => k.kid !== signing.kid).map(macKey)];
  }

  /** Generation `generation` of chain `chainId`, valid REFRESH_TTL_SECONDS from now. */
  seal(chainId: string, generation: number, grant: RefreshGrant): IssuedRefreshToken {
    const e = Math.floor(Date.now() / 1000) + REFRESH_TTL_SECONDS;
    const sealed: SealedGrant = { c: chainId, g: generation, i: grant.identityUid, a: grant.audience, n: grant.narrowing, e };
    const body = Buffer.from(JSON.stringify(sealed)).toString('base64url');
    return { token: `${REFRESH_TOKEN_PREFIX}${body}.${this.mac(body)}`, expiry: new Date(e * 1000) };
  }

  /** The grant of a token sealed with this key that has not expired; undefined for anything else. */
  open(token: string): SealedGrant | undefined {
    const m = SEALED.exec(token);
    if (!m) return undefined;
    const given = Buffer.from(m[2], 'base64url');
    const genuine = this.opening.some((key) => {
      const expected = Buffer.from(this.mac(m[1], key), 'base64url');
      return given.length === expected.length && timingSafeEqual(given, expected);
    });
    if (!genuine) return undefined;
    let s: unknown;
    try {
      s = JSON.parse(Buffer.from(m[1], 'base64url').toString('utf8'));
    } catch {
      return undefined;
    }
    return isSealedGrant(s) && s.e * 1000 > Date.now() ? s : undefined;
  }

  private mac(body: string, key = this.key): string {
    return createHmac('sha256', key).update(REFRESH_TOKEN_PREFIX).update(body).digest('base64url');
  }
}

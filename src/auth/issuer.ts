// Berth is its own OIDC issuer: it mints one-hour JWTs for identities and
// verifies them on every request. Verified tokens are cached until expiry so a
// request costs one map lookup, not a signature check. The key ring is read
// again every RING_RELOAD_MS (and on a token of a key it does not hold), so a
// rotation or retirement (berth admin signing-keys) reaches every instance
// without a restart; a retired key's cached tokens are forgotten then.
import type { KeyObject } from 'node:crypto';
import { createLocalJWKSet, jwtVerify, type JWTPayload } from 'jose';
import { signJwt } from './jwt-sign.js';
import { setRecent } from '../core/recent-map.js';
import type { Store } from '../store/store.js';
import { RefreshTokenSeal } from './refresh-token-seal.js';
import { KEY_ALGORITHMS, liveKeyIds, loadKeyRing, type KeyRing } from './signing-keys.js';

export const TOKEN_TTL_SECONDS = 3600;
const CACHE_LIMIT = 10_000;
/** How often the key ring is read again: how long a rotation or retirement takes to reach every instance. */
const RING_RELOAD_MS = 10_000;

export interface VerifiedToken {
  subject: string;
  audience: string[];
  expiresAt: number;
  /** Every claim of the token (e.g. a registry token's `access`). */
  claims: JWTPayload;
}

export class Issuer {
  private ring!: KeyRing;
  private jwks!: ReturnType<typeof createLocalJWKSet>;
  private readonly cache = new Map<string, VerifiedToken>();
  private lastReload = 0;
  private reloading?: Promise<void>;
  private seal!: RefreshTokenSeal;

  private constructor(
    private readonly store: Store,
    /** The issuer URL (`iss`), also the default API audience. */
    readonly url: string,
    /** Unseals the private keys stored in the database, when they are sealed. */
    private readonly secrets: KeyObject | undefined,
  ) {}

  static async open(store: Store, url: string, secrets?: KeyObject): Promise<Issuer> {
    const issuer = new Issuer(store, url, secrets);
    await issuer.reload();
    return issuer;
  }

  private async reload(): Promise<void> {
    const kids = (keys: readonly { kid: string }[]) => keys.map((k) => k.kid).join(' ');
    // The usual case: the same keys as in hand. Only their ids are read; nothing is unsealed or parsed again.
    if (this.ring !== undefined && kids(await liveKeyIds(this.store.db)) === kids(this.ring.keys)) {
      this.lastReload = Date.now();
      return;
    }
    const ring = await loadKeyRing(this.store, this.secrets);
    this.lastReload = Date.now();
    const retired = this.ring?.keys.some((k) => !ring.keys.some((l) => l.kid === k.kid)) ?? false;
    this.ring = ring;
    this.jwks = createLocalJWKSet({ keys: ring.publicKeys });
    this.seal = new RefreshTokenSeal(ring.signing, ring.keys);
    if (retired) this.cache.clear(); // tokens of a retired key must not pass from the cache
  }

  /** Reads the key ring again in the background once RING_RELOAD_MS have passed; a failed read keeps the ring (and is tried again). */
  private reloadWhenDue(): void {
    if (this.reloading || Date.now() - this.lastReload < RING_RELOAD_MS) return;
    this.reloading = this.reload()
      .catch(() => {
        this.lastReload = Date.now(); // the database is away: the ring in hand stays, tried again later
      })
      .finally(() => {
        this.reloading = undefined;
      });
  }

  /** The refresh-token seal of the current ring (refresh-tokens.ts). */
  get refreshSeal(): RefreshTokenSeal {
    this.reloadWhenDue();
    return this.seal;
  }

  get jwksDocument(): { keys: object[] } {
    return { keys: this.ring.publicKeys };
  }

  /** A token for `subject`, valid `ttlSeconds` (an hour unless shorter is asked, e.g. for a webhook delivery). */
  async mint(subject: string, audience: string, extra: JWTPayload = {}, ttlSeconds = TOKEN_TTL_SECONDS): Promise<{ token: string; expiry: Date }> {
    this.reloadWhenDue();
    const now = Math.floor(Date.now() / 1000);
    const ttl = Math.max(1, Math.min(TOKEN_TTL_SECONDS, Math.floor(ttlSeconds)));
    const token = signJwt(this.ring.signing, { ...extra, iss: this.url, sub: subject, aud: audience, iat: now, nbf: now - 5, exp: now + ttl });
    return { token, expiry: new Date((now + ttl) * 1000) };
  }

  /** Verifies a Berth token whose audience is one of `audiences`; throws on any failure. */
  async verify(token: string, audiences: string | readonly string[]): Promise<VerifiedToken> {
    const accepted = typeof audiences === 'string' ? [audiences] : audiences;
    this.reloadWhenDue();
    const cached = this.cache.get(token);
    const nowSec = Date.now() / 1000;
    if (cached && cached.expiresAt > nowSec) {
      if (!cached.audience.some((a) => accepted.includes(a))) throw new Error('token audience does not match');
      return cached;
    }
    // jose accepts a token without exp unless told otherwise; ours always carry one.
    const options = { issuer: this.url, algorithms: [...KEY_ALGORITHMS], requiredClaims: ['exp'] };
    let payload: JWTPayload;
    try {
      ({ payload } = await jwtVerify(token, this.jwks, options));
    } catch (err) {
      // A key added by another instance after we loaded ours: reload at most every 10 s.
      if ((err as { code?: string }).code === 'ERR_JWKS_NO_MATCHING_KEY' && Date.now() - this.lastReload > 10_000) {
        await this.reload();
        ({ payload } = await jwtVerify(token, this.jwks, options));
      } else {
        throw err;
      }
    }
    const aud = payload.aud === undefined ? [] : Array.isArray(payload.aud) ? payload.aud : [payload.aud];
    const verified: VerifiedToken = { subject: String(payload.sub ?? ''), audience: aud, expiresAt: Number(payload.exp), claims: payload };
    setRecent(this.cache, token, verified, CACHE_LIMIT);
    if (!aud.some((a) => accepted.includes(a))) throw new Error('token audience does not match');
    return verified;
  }

  discoveryDocument(): Record<string, unknown> {
    return {
      issuer: this.url,
      jwks_uri: `${this.url}/.well-known/jwks.json`,
      token_endpoint: `${this.url}/sts/exchange`,
      response_types_supported: ['id_token'],
      subject_types_supported: ['public'],
      id_token_signing_alg_values_supported: [...new Set(this.ring.publicKeys.map((k) => String(k.alg)))],
      claims_supported: ['iss', 'sub', 'aud', 'exp', 'iat', 'nbf'],
    };
  }
}

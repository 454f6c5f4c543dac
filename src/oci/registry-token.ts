// The token /token hands out: a JWT from Berth's own issuer with aud = the
// registry host, sub = the identity ("" when anonymous) and the Docker
// token spec's `access` claim listing what it may do. An entry may carry
// `pull_tags`: pull then reaches only those tags (the free tier of the public
// organization). The `access` claim is what tells a registry token from an
// identity's own registry-audience token.
import type { JWTPayload } from 'jose';
import type { Issuer } from '../auth/issuer.js';
import { TOKEN_TTL_SECONDS } from '../auth/issuer.js';

export interface TokenAccessEntry {
  type: string;
  class?: string;
  name: string;
  actions: string[];
  pull_tags?: string[];
}

export interface MintedRegistryToken {
  token: string;
  expiresIn: number;
  issuedAt: Date;
}

const MAX_ENTRIES = 64;

export async function mintRegistryToken(issuer: Issuer, audience: string, subject: string, access: TokenAccessEntry[]): Promise<MintedRegistryToken> {
  const { token, expiry } = await issuer.mint(subject, audience, { access });
  return { token, expiresIn: TOKEN_TTL_SECONDS, issuedAt: new Date(expiry.getTime() - TOKEN_TTL_SECONDS * 1000) };
}

const isStrings = (v: unknown): v is string[] => Array.isArray(v) && v.length <= 16 && v.every((x) => typeof x === 'string');

/**
 * The token's `access` claim, or undefined when it has none (an identity's
 * own token). A claim of the wrong shape yields [] — it can grant nothing —
 * though only Berth's issuer could have signed it.
 */
export function accessClaimOf(claims: JWTPayload): TokenAccessEntry[] | undefined {
  const raw = claims.access;
  if (raw === undefined) return undefined;
  if (!Array.isArray(raw) || raw.length > MAX_ENTRIES) return [];
  const out: TokenAccessEntry[] = [];
  for (const e of raw as unknown[]) {
    if (!e || typeof e !== 'object') return [];
    const { type, name, actions, pull_tags } = e as Record<string, unknown>;
    if (typeof type !== 'string' || typeof name !== 'string' || !isStrings(actions)) return [];
    if (pull_tags !== undefined && !isStrings(pull_tags)) return [];
    out.push({ type, name, actions, ...(pull_tags ? { pull_tags } : {}) });
  }
  return out;
}

// Keys of the external OIDC issuers that claimMatch identities and identity
// providers trust, found through each issuer's discovery document. Which
// issuers may be contacted is decided by issuer-url.ts, and every fetch goes
// only where the outbound policy allows (bounded-fetch.ts); the JWKS must be
// on the issuer's own origin, so a discovery document cannot point Berth at
// another host or port either. The
// cache is bounded too: at most CACHE_LIMIT issuers, each rediscovered after
// TTL_MS; jose refetches an issuer's JWKS when a token names an unknown kid
// (at most every 30 s). A failed discovery is remembered briefly so a stream
// of tokens naming a dead issuer costs one request per FAILURE_TTL_MS.
import { createRemoteJWKSet, customFetch, type JWTVerifyGetKey } from 'jose';
import { boundedFetch, boundedGet } from './bounded-fetch.js';
import { setRecent } from '../core/recent-map.js';
import type { OutboundPolicy } from '../outbound/outbound-policy.js';
import { discoveryUrl, issuerPolicy, issuerUrlProblem } from './issuer-url.js';

const DISCOVERY_BOUNDS = { timeoutMs: 5000, maxBytes: 64 * 1024 };
const JWKS_BOUNDS = { timeoutMs: 5000, maxBytes: 256 * 1024 };
const CACHE_LIMIT = 100;
const TTL_MS = 10 * 60_000;
const FAILURE_TTL_MS = 30_000;

interface Entry {
  keys: Promise<JWTVerifyGetKey>;
  expiresAt: number;
}

export interface ExternalIssuersOptions {
  /** --allow-insecure-issuers: issuers on loopback and private addresses, plain http to loopback. */
  allowInsecure: boolean;
}

export class ExternalIssuers {
  private readonly entries = new Map<string, Entry>(); // least recently used first
  /** Where issuer fetches (discovery, JWKS, an identity provider's token endpoint) may go. */
  readonly policy: OutboundPolicy;

  constructor(opts: ExternalIssuersOptions) {
    this.policy = issuerPolicy(opts.allowInsecure);
  }

  /** The keys of issuer `iss`; throws when it may not be contacted or its discovery fails. */
  async keys(iss: string): Promise<JWTVerifyGetKey> {
    const problem = issuerUrlProblem(iss, this.policy);
    if (problem) throw new Error(problem);
    return this.lookup(iss);
  }

  private lookup(iss: string): Promise<JWTVerifyGetKey> {
    const now = Date.now();
    const hit = this.entries.get(iss);
    if (hit && hit.expiresAt > now) {
      setRecent(this.entries, iss, hit, CACHE_LIMIT);
      return hit.keys;
    }
    const entry: Entry = { keys: discover(iss, this.policy), expiresAt: now + TTL_MS };
    entry.keys.catch(() => {
      entry.expiresAt = Math.min(entry.expiresAt, Date.now() + FAILURE_TTL_MS);
    });
    setRecent(this.entries, iss, entry, CACHE_LIMIT);
    return entry.keys;
  }
}

async function discover(iss: string, policy: OutboundPolicy): Promise<JWTVerifyGetKey> {
  const body = await boundedGet(discoveryUrl(iss), DISCOVERY_BOUNDS, policy, { accept: 'application/json' });
  const doc = JSON.parse(Buffer.from(body).toString('utf8')) as { issuer?: unknown; jwks_uri?: unknown } | null;
  if (doc?.issuer !== iss || typeof doc.jwks_uri !== 'string') throw new Error('discovery document is not valid for this issuer');
  const jwksUri = URL.parse(doc.jwks_uri);
  if (jwksUri?.origin !== new URL(iss).origin || jwksUri.username !== '' || jwksUri.password !== '') {
    throw new Error("jwks_uri must be on the issuer's own origin, without credentials");
  }
  return createRemoteJWKSet(jwksUri, { timeoutDuration: JWKS_BOUNDS.timeoutMs, [customFetch]: boundedFetch(JWKS_BOUNDS, policy) });
}

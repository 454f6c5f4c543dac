// Keys of the external OIDC issuers that claimMatch identities trust, found
// through each issuer's discovery document. Which issuers may be contacted is
// decided by issuer-url.ts; every fetch is bounded (bounded-fetch.ts). The
// cache is bounded too: at most CACHE_LIMIT issuers, each rediscovered after
// TTL_MS; jose refetches an issuer's JWKS when a token names an unknown kid
// (at most every 30 s). A failed discovery is remembered briefly so a stream
// of tokens naming a dead issuer costs one request per FAILURE_TTL_MS.
import { createRemoteJWKSet, customFetch, type JWTVerifyGetKey } from 'jose';
import { boundedFetch, boundedGet } from './bounded-fetch.js';
import { setRecent } from '../core/recent-map.js';
import { discoveryUrl, issuerUrlProblem } from './issuer-url.js';

const DISCOVERY_BOUNDS = { timeoutMs: 5000, maxBytes: 64 * 1024 };
const JWKS_BOUNDS = { timeoutMs: 5000, maxBytes: 256 * 1024 };
const CACHE_LIMIT = 100;
const TTL_MS = 10 * 60_000;
const FAILURE_TTL_MS = 30_000;

interface IssuerKeys {
  getKey: JWTVerifyGetKey;
  /** Origin of the jwks_uri, compared with the issuer's for pattern-matched issuers. */
  jwksOrigin: string;
}

interface Entry {
  keys: Promise<IssuerKeys>;
  expiresAt: number;
}

export interface ExternalIssuersOptions {
  /** --allow-insecure-issuers: plain-http discovery for loopback issuers matched by a pattern. */
  allowInsecureLoopback: boolean;
}

export class ExternalIssuers {
  private readonly entries = new Map<string, Entry>(); // least recently used first

  constructor(private readonly opts: ExternalIssuersOptions) {}

  /**
   * The keys of issuer `iss`; throws when it may not be contacted or its
   * discovery fails. `named`: an identity names `iss` exactly; otherwise it
   * only matched a pattern, and its keys must be served from its own origin.
   */
  async keys(iss: string, named: boolean): Promise<JWTVerifyGetKey> {
    const problem = issuerUrlProblem(iss, { named, allowInsecureLoopback: this.opts.allowInsecureLoopback });
    if (problem) throw new Error(problem);
    const found = await this.lookup(iss);
    if (!named && found.jwksOrigin !== new URL(iss).origin) throw new Error('keys of a pattern-matched issuer must be on its own origin');
    return found.getKey;
  }

  private lookup(iss: string): Promise<IssuerKeys> {
    const now = Date.now();
    const hit = this.entries.get(iss);
    if (hit && hit.expiresAt > now) {
      setRecent(this.entries, iss, hit, CACHE_LIMIT);
      return hit.keys;
    }
    const entry: Entry = { keys: discover(iss), expiresAt: now + TTL_MS };
    entry.keys.catch(() => {
      entry.expiresAt = Math.min(entry.expiresAt, Date.now() + FAILURE_TTL_MS);
    });
    setRecent(this.entries, iss, entry, CACHE_LIMIT);
    return entry.keys;
  }
}

async function discover(iss: string): Promise<IssuerKeys> {
  const body = await boundedGet(discoveryUrl(iss), DISCOVERY_BOUNDS, { accept: 'application/json' });
  const doc = JSON.parse(Buffer.from(body).toString('utf8')) as { issuer?: unknown; jwks_uri?: unknown } | null;
  if (doc?.issuer !== iss || typeof doc.jwks_uri !== 'string') throw new Error('discovery document is not valid for this issuer');
  const jwksUri = new URL(doc.jwks_uri);
  if ((jwksUri.protocol !== 'https:' && jwksUri.protocol !== 'http:') || jwksUri.username !== '' || jwksUri.password !== '') {
    throw new Error('jwks_uri must be an http(s) URL without credentials');
  }
  const getKey = createRemoteJWKSet(jwksUri, { timeoutDuration: JWKS_BOUNDS.timeoutMs, [customFetch]: boundedFetch(JWKS_BOUNDS) });
  return { getKey, jwksOrigin: jwksUri.origin };
}

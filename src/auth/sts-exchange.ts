// Token exchange: a client proves who it is with a token Berth can verify and
// gets back a one-hour Berth token for the audience it asked for.
//  - staticKeys identities sign their own single-use assertion (iss/sub of the
//    identity, aud = this issuer) with a key whose public half the identity
//    holds (static-assertion.ts, used-assertions.ts).
//  - claimMatch identities present an OIDC token of an external issuer, whose
//    keys are found through that issuer's discovery document
//    (claim-match-token.ts, external-issuers.ts).
// Without identity=<uid> the candidates are the identities whose exact issuer
// and subject are the token's (identities with patterns need identity=); the
// one that accepts the token is used, and more than one is an error.
// cap and scopes narrow the token (token-narrowing.ts); a refresh token comes
// with it (refresh-tokens.ts).
import { decodeJwt, type JWTPayload } from 'jose';
import {
  assertionReplayed,
  badExchangeRequest,
  exchangeNotJwt,
  exchangeTokenMissing,
  identityAmbiguous,
  noIdentityAccepts,
  refreshTokenInvalid,
} from './errors.js';
import { isValidUid } from '../core/uidp.js';
import type { Store } from '../store/store.js';
import { transact } from '../store/transact.js';
import type { AccessDirectory, ExchangeCandidate, ExchangeDirectory } from './access-directory.js';
import { capabilitiesByName } from './capability-names.js';
import { verifyClaimMatch } from './claim-match-token.js';
import type { ExternalIssuers } from './external-issuers.js';
import type { Issuer } from './issuer.js';
import type { RefreshTokens } from './refresh-tokens.js';
import { verifyStaticAssertion } from './static-assertion.js';
import { MAX_NARROWING_ENTRIES, narrowingClaims } from './token-narrowing.js';
import { assertionExpiry, assertionId, recordAssertion } from './used-assertions.js';

export interface ExchangeRequest {
  assertion: string;
  audiences: string[];
  identity: string;
  /** Capability friendly names the token is limited to (none: the identity's). */
  caps: string[];
  /** Group uids the token is limited to (none: everywhere). */
  scopes: string[];
  /**
   * Accepted and checked to be a uid, otherwise unused: it picks the login
   * connection of the browser flow, which Berth does not have yet, and an ID
   * token's exchange does not depend on it. Not looked up: that would tell an
   * unauthenticated caller which identity providers exist.
   */
  identityProvider: string;
}

export interface ExchangeResult {
  token: string;
  expiry: Date;
  refreshToken: string;
}

export interface ExchangeDeps {
  /** Where used static assertions are recorded. */
  store: Store;
  /** Identities that may accept a token (IAM). */
  identities: ExchangeDirectory;
  issuer: Issuer;
  /** Audiences Berth mints tokens for (the API URL, the registry host…). */
  allowedAudiences: readonly string[];
  externalIssuers: ExternalIssuers;
  /** Whether an identity still exists, when its refresh token is traded. */
  access: AccessDirectory;
  refreshTokens: RefreshTokens;
}

/** How a candidate identity took the token: a static assertion to record, or an external token's verified claims. */
type Acceptance = { static: JWTPayload } | { external: JWTPayload };

const MAX_EMAIL = 254;
const EMAIL = /^[^\s@]{1,64}@[^\s@]{1,189}$/;

/**
 * The email an external token vouches for: its issuer signed it and says it
 * verified it (email_verified: true). Berth keeps it as the identity's email,
 * which is what an invite restricted to an address is checked against.
 */
function verifiedEmail(claims: JWTPayload): string | undefined {
  const { email, email_verified: verified } = claims;
  return verified === true && typeof email === 'string' && email.length <= MAX_EMAIL && EMAIL.test(email) ? email : undefined;
}

async function accepts(rel: ExchangeCandidate['relationship'], assertion: string, claims: JWTPayload, deps: ExchangeDeps): Promise<Acceptance | undefined> {
  try {
    if (rel.case === 'staticKeys') {
      const payload = await verifyStaticAssertion(rel.value, assertion, claims, deps.issuer.url);
      return payload && { static: payload };
    }
    if (rel.case === 'claimMatch') {
      const payload = await verifyClaimMatch(rel.value, assertion, claims, { externalIssuers: deps.externalIssuers, issuerUrl: deps.issuer.url });
      return payload && { external: payload };
    }
  } catch {
    // a bad signature, an expired token, an issuer Berth may not or cannot reach: not this identity
  }
  return undefined;
}

const CANDIDATE_LIMIT = 20;

/** The narrowing claims of a request's cap and scopes, validated. */
function requestedNarrowing(req: ExchangeRequest): JWTPayload {
  if (req.caps.length > MAX_NARROWING_ENTRIES) throw badExchangeRequest('cap', `at most ${MAX_NARROWING_ENTRIES} capabilities`);
  if (req.scopes.length > MAX_NARROWING_ENTRIES) throw badExchangeRequest('scopes', `at most ${MAX_NARROWING_ENTRIES} scopes`);
  const caps = [...new Set(req.caps)];
  for (const c of caps) {
    try {
      capabilitiesByName([c]);
    } catch {
      throw badExchangeRequest('cap', `${JSON.stringify(c.slice(0, 80))} is not a capability name (e.g. repo.list)`);
    }
  }
  const scopes = [...new Set(req.scopes)];
  for (const g of scopes) if (!isValidUid(g)) throw badExchangeRequest('scopes', `${JSON.stringify(g.slice(0, 80))} is not a group uid`);
  return narrowingClaims({ capNames: caps.length > 0 ? caps : undefined, scopes: scopes.length > 0 ? scopes : undefined });
}

function checkedAudience(deps: ExchangeDeps, audiences: string[]): string {
  const audience = audiences.length > 0 ? audiences : [deps.issuer.url];
  if (audience.length > 1) throw badExchangeRequest('aud', 'ask for one audience per token');
  if (!deps.allowedAudiences.includes(audience[0])) {
    throw badExchangeRequest('aud', `audience must be one of: ${deps.allowedAudiences.join(', ')}`);
  }
  return audience[0];
}

export async function exchange(deps: ExchangeDeps, req: ExchangeRequest): Promise<ExchangeResult> {
  if (req.assertion === '') throw exchangeTokenMissing();
  const audience = checkedAudience(deps, [...new Set(req.audiences)]);
  if (req.identity !== '' && !isValidUid(req.identity)) {
    throw badExchangeRequest('identity', 'identity must be a uid');
  }
  if (req.identityProvider !== '' && !isValidUid(req.identityProvider)) {
    throw badExchangeRequest('identityProvider', 'identityProvider must be a uid');
  }
  const narrowing = requestedNarrowing(req);
  let claims: JWTPayload;
  try {
    claims = decodeJwt(req.assertion);
  } catch {
    throw exchangeNotJwt();
  }
  const query = { identity: req.identity, issuer: String(claims.iss ?? ''), subject: String(claims.sub ?? '') };
  const candidates = await deps.identities.candidates(query, CANDIDATE_LIMIT + 1);
  // More candidates than we check could hide a second identity that accepts.
  if (candidates.length > CANDIDATE_LIMIT) throw identityAmbiguous(`more than ${CANDIDATE_LIMIT}`);
  const accepted: { uid: string; how: Acceptance }[] = [];
  for (const row of candidates) {
    const how = await accepts(row.relationship, req.assertion, claims, deps);
    if (how) accepted.push({ uid: row.uid, how });
  }
  if (accepted.length === 0) throw noIdentityAccepts();
  // Only the count: which identities accept says nothing the caller needs and may be none of its business.
  if (accepted.length > 1) throw identityAmbiguous(String(accepted.length));
  const [{ uid, how }] = accepted;
  // A static assertion is recorded in the same step that accepts it, so a
  // second exchange of it fails on every instance: PERMISSION_DENIED like every
  // other refusal of a well-formed token (bad signature, expired, no match);
  // UNAUTHENTICATED is kept for a missing or undecodable token. The identity's
  // last-seen time is written at most once a minute (seenRecently), and the
  // refresh token is sealed, not stored: an external token's exchange usually
  // writes nothing. Signing comes after, outside the write lock.
  const email = 'external' in how ? verifiedEmail(how.external) : undefined;
  const recordStatic = 'static' in how ? how.static : undefined;
  if (recordStatic || !deps.identities.seenRecently(uid, email)) {
    await transact(deps.store, async (tx) => {
      if (recordStatic && !(await recordAssertion(tx, assertionId(req.assertion, recordStatic), assertionExpiry(recordStatic)))) {
        throw assertionReplayed();
      }
      await deps.identities.markSeen(tx, uid, email);
    });
  }
  const minted = await deps.issuer.mint(uid, audience, narrowing);
  return { ...minted, refreshToken: deps.refreshTokens.issue({ identityUid: uid, audience, narrowing }).token };
}

export interface RefreshResult {
  token: { token: string; expiry: Date };
  refreshToken: { token: string; expiry: Date };
}

/**
 * /sts/exchange_refresh_token: a new token and the next refresh token of the
 * chain; a reused one revokes the chain. `aud` (at most one, one of the
 * audiences Berth mints for) asks for this token's audience — e.g. the
 * registry host for a signed-in user's docker login; the chain keeps its own,
 * and its narrowing holds whatever the audience.
 */
export async function exchangeRefreshToken(deps: ExchangeDeps, refreshToken: string, audiences: readonly string[] = []): Promise<RefreshResult> {
  if (refreshToken === '') throw exchangeTokenMissing();
  if (audiences.length > 1) throw badExchangeRequest('aud', 'ask for one audience per token');
  if (audiences.length === 1 && !deps.allowedAudiences.includes(audiences[0])) {
    throw badExchangeRequest('aud', `audience must be one of: ${deps.allowedAudiences.join(', ')}`);
  }
  const rotated = await deps.refreshTokens.rotate(refreshToken, async (uid) => (await deps.access.load(uid)).exists);
  if (!rotated.ok) throw refreshTokenInvalid();
  const { identityUid, audience, narrowing } = rotated.grant;
  return { token: await deps.issuer.mint(identityUid, audiences[0] ?? audience, narrowing), refreshToken: rotated.next };
}

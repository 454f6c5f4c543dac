// Token exchange: a client proves who it is with a token Berth can verify and
// gets back a one-hour Berth token for the audience it asked for.
//  - staticKeys identities sign their own single-use assertion (iss/sub of the
//    identity, aud = this issuer) with a key whose public half the identity
//    holds (static-assertion.ts, used-assertions.ts).
//  - claimMatch identities present an OIDC token of an external issuer, whose
//    keys are found through that issuer's discovery document
//    (claim-match-token.ts, external-issuers.ts).
// Without identity=<uid> the candidates are the identities whose exact issuer
// and subject are the token's; identities with patterns need identity=<uid>.
import { decodeJwt, type JWTPayload } from 'jose';
import { assertionReplayed, badExchangeRequest, exchangeNotJwt, exchangeTokenMissing, noIdentityAccepts } from './errors.js';
import { isValidUid } from '../core/uidp.js';
import type { Store } from '../store/store.js';
import type { ExchangeCandidate, ExchangeDirectory } from './access-directory.js';
import { verifyClaimMatch } from './claim-match-token.js';
import type { ExternalIssuers } from './external-issuers.js';
import type { Issuer } from './issuer.js';
import { verifyStaticAssertion } from './static-assertion.js';
import { assertionExpiry, assertionId, recordAssertion } from './used-assertions.js';

export interface ExchangeRequest {
  assertion: string;
  audiences: string[];
  identity: string;
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

export async function exchange(deps: ExchangeDeps, req: ExchangeRequest): Promise<{ token: string; expiry: Date }> {
  if (req.assertion === '') throw exchangeTokenMissing();
  const audiences = req.audiences.length > 0 ? req.audiences : [deps.issuer.url];
  if (audiences.length > 1) throw badExchangeRequest('aud', 'ask for one audience per token');
  if (!deps.allowedAudiences.includes(audiences[0])) {
    throw badExchangeRequest('aud', `audience must be one of: ${deps.allowedAudiences.join(', ')}`);
  }
  if (req.identity !== '' && !isValidUid(req.identity)) {
    throw badExchangeRequest('identity', 'identity must be a uid');
  }
  let claims: JWTPayload;
  try {
    claims = decodeJwt(req.assertion);
  } catch {
    throw exchangeNotJwt();
  }
  const candidates = await deps.identities.candidates({ identity: req.identity, issuer: String(claims.iss ?? ''), subject: String(claims.sub ?? '') }, 20);
  for (const row of candidates) {
    const accepted = await accepts(row.relationship, req.assertion, claims, deps);
    if (!accepted) continue;
    // Recorded in the same step that accepts it, so a second exchange of the
    // same assertion fails on every instance. PERMISSION_DENIED like every
    // other refusal of a well-formed token (bad signature, expired, no match);
    // UNAUTHENTICATED is kept for a missing or undecodable token.
    if ('static' in accepted && !(await recordAssertion(deps.store, assertionId(req.assertion, accepted.static), assertionExpiry(accepted.static)))) {
      throw assertionReplayed();
    }
    await deps.identities.markSeen(row.uid, 'external' in accepted ? verifiedEmail(accepted.external) : undefined);
    return deps.issuer.mint(row.uid, audiences[0]);
  }
  throw noIdentityAccepts();
}

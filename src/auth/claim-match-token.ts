// An external OIDC token for a claimMatch identity. Nothing but the issuer is
// looked at before the signature is checked: an exact issuer is compared, an
// issuer pattern runs (RE2, linear time) and the issuer must be one Berth may
// contact (issuer-url.ts, the same rules whether named or matched). Subject, audience and claim patterns then run only
// on claims the issuer signed.
//
// jose checks the rest (as for an identity provider's ID token,
// provider-login.ts): the algorithm is one of ASYMMETRIC_ALGORITHMS, the key
// is the issuer's for the header's kid and of that algorithm's type (an RSA
// key of at least 2048 bits), no `crit` extension is present (Berth
// understands none), the signature holds, iss is the issuer, exp is present
// and not past, nbf not ahead (no clock tolerance).
//
// Such tokens are not single use, unlike static-key assertions: CI systems
// hand a job one ID token and steps reuse it within its lifetime (minutes), and
// the issuer, not the client, chose its jti. They must carry exp, and their
// aud must name Berth (or what the identity expects), which bounds their use.
import { jwtVerify, type JWTPayload } from 'jose';
import type { Identity_ClaimMatch } from '../gen/berth/iam/v2/identities_pb.js';
import { matchesPattern } from './claim-pattern.js';
import type { ExternalIssuers } from './external-issuers.js';
import { ASYMMETRIC_ALGORITHMS } from './token-algorithms.js';

function claimText(v: unknown): string | undefined {
  return typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean' ? String(v) : undefined;
}

function matchesOne(exact: string | undefined, pattern: string | undefined, value: string | undefined): boolean {
  if (value === undefined) return false;
  if (exact !== undefined) return exact === value;
  return pattern !== undefined && matchesPattern(pattern, value);
}

/** The token's verified claims when it is accepted for the identity, else undefined; throws on a bad token or unreachable issuer. */
export async function verifyClaimMatch(
  cm: Identity_ClaimMatch,
  assertion: string,
  claims: JWTPayload,
  deps: { externalIssuers: ExternalIssuers; issuerUrl: string },
): Promise<JWTPayload | undefined> {
  const iss = typeof claims.iss === 'string' ? claims.iss : undefined;
  const exact = cm.iss.case === 'issuer' ? cm.iss.value : undefined;
  if (iss === undefined || !matchesOne(exact, cm.iss.case === 'issuerPattern' ? cm.iss.value : undefined, iss)) return undefined;
  const keys = await deps.externalIssuers.keys(iss);
  const { payload } = await jwtVerify(assertion, keys, { issuer: iss, algorithms: ASYMMETRIC_ALGORITHMS, requiredClaims: ['exp'] });

  const sub = claimText(payload.sub);
  if (!matchesOne(cm.sub.case === 'subject' ? cm.sub.value : undefined, cm.sub.case === 'subjectPattern' ? cm.sub.value : undefined, sub)) return undefined;
  const auds = payload.aud === undefined ? [] : Array.isArray(payload.aud) ? payload.aud : [payload.aud];
  const audOk =
    cm.aud.case === 'audience'
      ? auds.includes(cm.aud.value)
      : cm.aud.case === 'audiencePattern'
        ? auds.some((a) => matchesPattern(cm.aud.value as string, a))
        : auds.includes(deps.issuerUrl);
  if (!audOk) return undefined;
  for (const [k, v] of Object.entries(cm.claims)) if (claimText(payload[k]) !== v) return undefined;
  for (const [k, v] of Object.entries(cm.claimPatterns)) if (!matchesOne(undefined, v, claimText(payload[k]))) return undefined;
  return payload;
}

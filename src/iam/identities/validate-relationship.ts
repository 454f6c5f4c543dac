// Checks an identity's relationship before it is stored, so /sts/exchange
// never meets a pattern RE2 does not accept, a JWKS it cannot read, or an
// exact claimMatch issuer it may not contact (issuer-url.ts).
import { timestampFromMs, timestampMs } from '@bufbuild/protobuf/wkt';
import type { Identity, Identity_ClaimMatch, Identity_StaticKeys } from '../../gen/berth/iam/v2/identities_pb.js';
import type { FieldViolation } from '../../core/api-error.js';
import { issuerPolicy, issuerUrlProblem } from '../../auth/issuer-url.js';
import { patternProblem } from '../../auth/claim-pattern.js';

export const MAX_KEY_LIFETIME_MS = 365 * 24 * 3600 * 1000;

function claimMatchViolations(m: Identity_ClaimMatch, allowInsecureIssuers: boolean, out: FieldViolation[]): void {
  const f = (name: string) => `claim_match.${name}`;
  if (m.iss.case === undefined || m.iss.value === '') out.push({ field: f('issuer'), description: 'issuer or issuer_pattern is required' });
  else if (m.iss.case === 'issuer') {
    const problem = issuerUrlProblem(m.iss.value, issuerPolicy(allowInsecureIssuers));
    if (problem) out.push({ field: f('issuer'), description: problem });
  }
  if (m.sub.case === undefined || m.sub.value === '') out.push({ field: f('subject'), description: 'subject or subject_pattern is required' });
  const patterns: [string, string][] = [];
  if (m.iss.case === 'issuerPattern') patterns.push(['issuer_pattern', m.iss.value]);
  if (m.sub.case === 'subjectPattern') patterns.push(['subject_pattern', m.sub.value]);
  if (m.aud.case === 'audiencePattern') patterns.push(['audience_pattern', m.aud.value]);
  for (const [k, v] of Object.entries(m.claimPatterns)) patterns.push([`claim_patterns.${k}`, v]);
  for (const [field, p] of patterns) {
    const problem = patternProblem(p);
    if (problem) out.push({ field: f(field), description: problem });
  }
}

function jwksProblem(text: string): string | undefined {
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch {
    return 'issuer_keys must be a JWKS JSON document';
  }
  const keys = (doc as { keys?: unknown } | null)?.keys;
  if (!Array.isArray(keys) || keys.length === 0) return 'issuer_keys must hold at least one key in "keys"';
  if (!keys.every((k) => typeof k === 'object' && k !== null && typeof (k as { kty?: unknown }).kty === 'string')) {
    return 'every key in issuer_keys must be a JWK with "kty"';
  }
  return undefined;
}

/** The static keys with the default expiration filled in, or the violations. */
function checkStaticKeys(k: Identity_StaticKeys, out: FieldViolation[]): Identity_StaticKeys {
  const f = (name: string) => `static_keys.${name}`;
  if (k.issuer === '') out.push({ field: f('issuer'), description: 'issuer is required' });
  if (k.subject === '') out.push({ field: f('subject'), description: 'subject is required' });
  const problem = jwksProblem(k.issuerKeys);
  if (problem) out.push({ field: f('issuer_keys'), description: problem });
  const now = Date.now();
  if (!k.expirationTime) return { ...k, expirationTime: timestampFromMs(now + MAX_KEY_LIFETIME_MS) };
  const exp = timestampMs(k.expirationTime);
  if (exp <= now) out.push({ field: f('expiration_time'), description: 'expiration_time must be in the future' });
  else if (exp > now + MAX_KEY_LIFETIME_MS) out.push({ field: f('expiration_time'), description: 'expiration_time must be at most 365 days ahead' });
  return k;
}

/** Validates the relationship (none is allowed) and returns it ready to store; `allowInsecureIssuers` is --allow-insecure-issuers. */
export function checkRelationship(rel: Identity['relationship'], allowInsecureIssuers: boolean, out: FieldViolation[]): Identity['relationship'] {
  if (rel.case === 'claimMatch') claimMatchViolations(rel.value, allowInsecureIssuers, out);
  if (rel.case === 'staticKeys') return { case: 'staticKeys', value: checkStaticKeys(rel.value, out) };
  return rel;
}

// JWTs signed with a staticKeys identity's own keys. Two uses share the check
// (the identity's iss and sub, a key of its JWKS, an exp, keys not expired):
//  - a one-shot assertion for /sts/exchange: aud = this issuer (or the
//    identity's audiences), at most an hour old; the caller records it so it
//    is used only once;
//  - a pull token's password (pull-token.ts): aud = the registry host, no age
//    limit, used again and again until it expires or the identity is deleted.
// A pull-token identity's JWT is never an STS assertion, so a registry
// password cannot be turned into an API token.
import { timestampMs } from '@bufbuild/protobuf/wkt';
import { createLocalJWKSet, jwtVerify, type JWTPayload } from 'jose';
import type { Identity_StaticKeys } from '../gen/berth/iam/v2/identities_pb.js';
import { PULL_TOKEN_ISSUER } from './pull-token-issuer.js';
import { ASYMMETRIC_ALGORITHMS } from './token-algorithms.js';
import { ASSERTION_MAX_AGE_SECONDS } from './used-assertions.js';

export interface StaticKeysCheck {
  /** The audiences the JWT may carry (one of them). */
  audience: string[];
  /** Oldest accepted `iat`, in seconds; no limit when absent. */
  maxTokenAge?: number;
  requiredClaims: string[];
}

/** True while the identity's keys have not expired. */
export function staticKeysLive(sk: Identity_StaticKeys): boolean {
  return !sk.expirationTime || timestampMs(sk.expirationTime) >= Date.now();
}

/** The claims of a JWT signed with one of the identity's keys for its iss and sub; throws on any failure. */
export async function verifyStaticKeysJwt(sk: Identity_StaticKeys, jwt: string, check: StaticKeysCheck): Promise<JWTPayload> {
  if (!staticKeysLive(sk)) throw new Error('the identity keys have expired');
  const keys = createLocalJWKSet(JSON.parse(sk.issuerKeys));
  const { payload } = await jwtVerify(jwt, keys, {
    issuer: sk.issuer,
    algorithms: ASYMMETRIC_ALGORITHMS,
    subject: sk.subject,
    audience: check.audience,
    maxTokenAge: check.maxTokenAge,
    requiredClaims: check.requiredClaims,
  });
  return payload;
}

/** The verified claims, or undefined when the assertion is not this identity's; throws on a bad token. */
export async function verifyStaticAssertion(
  sk: Identity_StaticKeys,
  assertion: string,
  claims: JWTPayload,
  issuerUrl: string,
): Promise<JWTPayload | undefined> {
  if (sk.issuer !== claims.iss || sk.subject !== claims.sub) return undefined;
  if (sk.issuer === PULL_TOKEN_ISSUER || !staticKeysLive(sk)) return undefined;
  return verifyStaticKeysJwt(sk, assertion, {
    audience: sk.audiences.length > 0 ? sk.audiences : [issuerUrl],
    maxTokenAge: ASSERTION_MAX_AGE_SECONDS,
    requiredClaims: ['exp', 'iat'],
  });
}

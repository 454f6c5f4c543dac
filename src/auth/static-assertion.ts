// A staticKeys identity's own assertion: the identity's iss and sub, aud = this
// issuer (or the identity's audiences), signed with a key of its JWKS, with an
// exp, and at most an hour old. The caller records it so it is used only once.
import { createLocalJWKSet, jwtVerify, type JWTPayload } from 'jose';
import type { Identity_StaticKeys } from '../gen/berth/iam/v2/identities_pb.js';
import { ASSERTION_MAX_AGE_SECONDS } from './used-assertions.js';

/** The verified claims, or undefined when the assertion is not this identity's; throws on a bad token. */
export async function verifyStaticAssertion(
  sk: Identity_StaticKeys,
  assertion: string,
  claims: JWTPayload,
  issuerUrl: string,
): Promise<JWTPayload | undefined> {
  if (sk.issuer !== claims.iss || sk.subject !== claims.sub) return undefined;
  if (sk.expirationTime && Number(sk.expirationTime.seconds) * 1000 < Date.now()) return undefined;
  const keys = createLocalJWKSet(JSON.parse(sk.issuerKeys));
  const { payload } = await jwtVerify(assertion, keys, {
    issuer: sk.issuer,
    subject: sk.subject,
    audience: sk.audiences.length > 0 ? sk.audiences : [issuerUrl],
    maxTokenAge: ASSERTION_MAX_AGE_SECONDS,
    requiredClaims: ['exp', 'iat'],
  });
  return payload;
}

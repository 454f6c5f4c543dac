// The errors of authentication, authorization and the token exchange, made by
// name and declared in the catalogue. Guard errors carry the domain of the
// service that was called.
import { Code } from '@connectrpc/connect';
import { failedPrecondition, invalidArgument, notFound, permissionDenied, unauthenticated, unavailable } from '../core/api-error.js';
import { defineError } from '../core/error-catalogue.js';

export const STS_DOMAIN = 'sts.berth.dev';

export const tokenRequired = defineError(
  {
    domain: 'any',
    name: 'tokenRequired',
    code: Code.Unauthenticated,
    detail: 'ErrorInfo only',
    when: 'no Authorization: Bearer token on an RPC that needs one',
  },
  (domain: string) => unauthenticated(domain, 'a bearer token is required (Authorization: Bearer <token>)'),
);
export const tokenInvalid = defineError(
  {
    domain: 'any',
    name: 'tokenInvalid',
    code: Code.Unauthenticated,
    detail: 'ErrorInfo only',
    when: 'the token is malformed, badly signed, expired, without exp, or for another audience',
  },
  (domain: string) => unauthenticated(domain, 'the bearer token is invalid, expired or for another audience'),
);
export const identityGone = defineError(
  { domain: 'any', name: 'identityGone', code: Code.Unauthenticated, detail: 'ErrorInfo only', when: 'the identity the token was issued to was deleted since' },
  (domain: string) => unauthenticated(domain, 'the identity this token was issued to no longer exists'),
);
export const capabilityMissing = defineError(
  {
    domain: 'any',
    name: 'capabilityMissing',
    code: Code.PermissionDenied,
    detail: 'ErrorInfo only',
    when: 'the caller lacks a capability at the uid (checked before the resource is read, so it says nothing of existence)',
  },
  (domain: string, missing: string, uid: string) => permissionDenied(domain, `the caller lacks ${missing} on ${JSON.stringify(uid)}`),
);

export const exchangeTokenMissing = defineError(
  {
    domain: STS_DOMAIN,
    name: 'exchangeTokenMissing',
    code: Code.Unauthenticated,
    detail: 'ErrorInfo only',
    when: '/sts/exchange without a Bearer token to exchange',
  },
  () => unauthenticated(STS_DOMAIN, 'send the token to exchange as Authorization: Bearer <token>'),
);
export const exchangeNotJwt = defineError(
  { domain: STS_DOMAIN, name: 'exchangeNotJwt', code: Code.Unauthenticated, detail: 'ErrorInfo only', when: 'the presented token is not a JWT' },
  () => unauthenticated(STS_DOMAIN, 'the presented token is not a JWT'),
);
export const badExchangeRequest = defineError(
  {
    domain: STS_DOMAIN,
    name: 'badExchangeRequest',
    code: Code.InvalidArgument,
    detail: 'BadRequest',
    when: 'more than one aud, an audience Berth does not mint for, an identity that is not a uid',
  },
  (field: string, description: string) => invalidArgument(STS_DOMAIN, [{ field, description }]),
);
export const assertionReplayed = defineError(
  {
    domain: STS_DOMAIN,
    name: 'assertionReplayed',
    code: Code.PermissionDenied,
    detail: 'ErrorInfo only',
    when: 'a static-key assertion (or its jti) was exchanged before, on any instance',
  },
  () => permissionDenied(STS_DOMAIN, 'this assertion was already exchanged; sign a new one for every exchange'),
);
export const noIdentityAccepts = defineError(
  {
    domain: STS_DOMAIN,
    name: 'noIdentityAccepts',
    code: Code.PermissionDenied,
    detail: 'ErrorInfo only',
    when: 'no identity accepts the token: bad signature, expired, no exp, unmatched claims, issuer Berth may not fetch',
  },
  () => permissionDenied(STS_DOMAIN, 'no identity accepts the presented token'),
);
export const identityAmbiguous = defineError(
  {
    domain: STS_DOMAIN,
    name: 'identityAmbiguous',
    code: Code.InvalidArgument,
    detail: 'BadRequest',
    when: '/sts/exchange without identity=<uid> when more than one identity accepts the token (or too many might)',
  },
  (count: string) =>
    invalidArgument(STS_DOMAIN, [{ field: 'identity', description: `${count} identities accept this token: name the one to assume with identity=<uid>` }]),
);
export const refreshTokenInvalid = defineError(
  {
    domain: STS_DOMAIN,
    name: 'refreshTokenInvalid',
    code: Code.Unauthenticated,
    detail: 'ErrorInfo only',
    when: '/sts/exchange_refresh_token with a refresh token that is unknown, expired, already used (its whole chain is then revoked) or whose identity was deleted',
  },
  () => unauthenticated(STS_DOMAIN, 'the refresh token is invalid, expired, already used or revoked; exchange a new ID token'),
);

export const loginProviderNotFound = defineError(
  {
    domain: STS_DOMAIN,
    name: 'loginProviderNotFound',
    code: Code.NotFound,
    detail: 'ResourceInfo',
    when: '/sts/login or /sts/login_settings naming an identity provider that does not exist',
  },
  (uid: string) => notFound(STS_DOMAIN, 'berth.iam.v2.IdentityProvider', uid),
);
export const loginRefused = defineError(
  {
    domain: STS_DOMAIN,
    name: 'loginRefused',
    code: Code.PermissionDenied,
    detail: 'ErrorInfo only',
    when: '/sts/login: the provider refused the code, or its ID token is badly signed, expired, for another client, of another issuer or without the nonce sent',
  },
  (why: string) => permissionDenied(STS_DOMAIN, `sign in refused: ${why}`),
);
export const loginProviderUnavailable = defineError(
  {
    domain: STS_DOMAIN,
    name: 'loginProviderUnavailable',
    code: Code.Unavailable,
    detail: 'ErrorInfo only',
    when: "/sts/login: the provider's discovery document or token endpoint cannot be reached or is not valid for its issuer",
  },
  (why: string) => unavailable(STS_DOMAIN, `the identity provider cannot be used: ${why}`),
);
export const loginSecretSealed = defineError(
  {
    domain: STS_DOMAIN,
    name: 'loginSecretSealed',
    code: Code.FailedPrecondition,
    detail: 'PreconditionFailure',
    type: 'SECRETS_KEY_REQUIRED',
    when: '/sts/login through a provider whose client secret this server cannot open (it runs without the secrets key that sealed it)',
  },
  (uid: string) =>
    failedPrecondition(STS_DOMAIN, 'SECRETS_KEY_REQUIRED', 'the provider has a client secret this server cannot open: start it with the secrets key', uid),
);

// What makes an identity provider valid, shared by create and update. Every
// rule needs only the request (and the provider's group uid), so it runs before
// anything is read; the default role's existence and the caller's right to
// hand it out are checked after (roles/grantable-role.ts).
import { issuerPolicy, issuerUrlProblem } from '../../auth/issuer-url.js';
import type { FieldViolation } from '../../core/api-error.js';
import type { IdentityProvider_OIDC } from '../../gen/berth/iam/v2/identity_providers_pb.js';
import { roleUidViolation } from '../roles/grantable-role.js';

export const MIN_NAME = 3;
export const MAX_NAME = 63;
export const MAX_DESCRIPTION = 1000;
export const MAX_ISSUER = 512;
export const MAX_CLIENT_ID = 256;
export const MAX_CLIENT_SECRET = 1024;
export const MAX_SCOPES = 20;
export const MAX_SCOPE = 128;
export const MAX_CLAIM = 256;

/** RFC 6749: client ids and secrets are printable ASCII (VSCHAR). */
const VSCHAR = /^[\x20-\x7e]*$/;
/** RFC 6749 scope-token: printable ASCII but space, " and \. */
const SCOPE_TOKEN = /^[\x21\x23-\x5b\x5d-\x7e]+$/;
/** A claim name: printable ASCII without spaces (e.g. groups, cognito:groups, https://example.com/groups). */
const CLAIM_NAME = /^[\x21-\x7e]+$/;
const CONTROL = /\p{Cc}/u;

/** The writable settings of a provider, once an update has been merged. */
export interface ProviderSettings {
  name: string;
  description: string;
  defaultRole: string;
  /** Absent when the request carries no OIDC configuration. */
  oidc: Omit<IdentityProvider_OIDC, '$typeName' | '$unknown' | 'clientSecret'> | undefined;
}

const F = 'identity_provider';

export function settingsViolations(s: ProviderSettings, group: string, allowInsecureIssuers: boolean): FieldViolation[] {
  const out: FieldViolation[] = [];
  if (s.name.length < MIN_NAME || s.name.length > MAX_NAME || CONTROL.test(s.name)) {
    out.push({ field: `${F}.name`, description: `name must be ${MIN_NAME} to ${MAX_NAME} characters, without control characters` });
  }
  if (s.description.length > MAX_DESCRIPTION) out.push({ field: `${F}.description`, description: `description must be at most ${MAX_DESCRIPTION} characters` });
  const role = roleUidViolation(s.defaultRole, group, `${F}.default_role`);
  if (role) out.push(role);
  if (!s.oidc) {
    out.push({ field: `${F}.oidc`, description: 'an OIDC configuration (issuer, client_id) is required' });
    return out;
  }
  const o = s.oidc;
  const issuerProblem =
    o.issuer === ''
      ? 'issuer is required'
      : o.issuer.length > MAX_ISSUER
        ? `issuer must be at most ${MAX_ISSUER} characters`
        : issuerUrlProblem(o.issuer, issuerPolicy(allowInsecureIssuers));
  if (issuerProblem) out.push({ field: `${F}.oidc.issuer`, description: issuerProblem });
  if (o.clientId === '' || o.clientId.length > MAX_CLIENT_ID || !VSCHAR.test(o.clientId)) {
    out.push({ field: `${F}.oidc.client_id`, description: `client_id is required: 1 to ${MAX_CLIENT_ID} printable ASCII characters` });
  }
  if (o.additionalScopes.length > MAX_SCOPES) {
    out.push({ field: `${F}.oidc.additional_scopes`, description: `at most ${MAX_SCOPES} scopes` });
  }
  o.additionalScopes.slice(0, MAX_SCOPES).forEach((scope, i) => {
    if (scope.length > MAX_SCOPE || !SCOPE_TOKEN.test(scope)) {
      out.push({
        field: `${F}.oidc.additional_scopes[${i}]`,
        description: `a scope is 1 to ${MAX_SCOPE} printable ASCII characters without spaces, quotes or backslashes`,
      });
    }
  });
  if (o.groupsClaim !== '' && (o.groupsClaim.length > MAX_CLAIM || !CLAIM_NAME.test(o.groupsClaim))) {
    out.push({ field: `${F}.oidc.groups_claim`, description: `groups_claim is a claim name: 1 to ${MAX_CLAIM} printable ASCII characters without spaces` });
  }
  return out;
}

export function clientSecretViolation(secret: string): FieldViolation | undefined {
  if (secret.length > MAX_CLIENT_SECRET || !VSCHAR.test(secret)) {
    return { field: `${F}.oidc.client_secret`, description: `client_secret must be at most ${MAX_CLIENT_SECRET} printable ASCII characters` };
  }
  return undefined;
}

/** Scopes as stored: each once, in the order given. */
export function normalizeScopes(scopes: readonly string[]): string[] {
  return [...new Set(scopes)];
}

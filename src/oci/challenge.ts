// The WWW-Authenticate challenge of a 401 (distribution's token auth): where
// to get a token (realm), for which registry (service), and — on a
// repository route — the scope the client should ask for. `error` follows
// RFC 6750: invalid_token when the token did not verify, insufficient_scope
// when it did but does not cover the request (docker and skopeo then ask
// /token again with that scope).
import type { RegistryConfig } from './registry-config.js';
import { OciError } from './oci-errors.js';
import type { RepoAction } from './token-scope.js';

export interface ChallengeScope {
  name: string;
  actions: readonly RepoAction[];
}

export type ChallengeError = 'invalid_token' | 'insufficient_scope';

export function bearerChallenge(config: RegistryConfig, scope?: ChallengeScope, error?: ChallengeError): string {
  // Names and hosts are grammar-checked before they get here: no quote can appear.
  let out = `Bearer realm="${config.publicUrl}/token",service="${config.host}"`;
  if (scope) out += `,scope="repository:${scope.name}:${scope.actions.join(',')}"`;
  if (error) out += `,error="${error}"`;
  return out;
}

/** 401 UNAUTHORIZED with the challenge; the detail names what was asked for, as distribution's does. */
export function unauthorized(config: RegistryConfig, message: string, scope?: ChallengeScope, error?: ChallengeError): OciError {
  const detail = scope ? [{ Type: 'repository', Name: scope.name, Action: scope.actions.join(',') }] : undefined;
  return new OciError('UNAUTHORIZED', message, detail, { headers: { 'www-authenticate': bearerChallenge(config, scope, error) } });
}

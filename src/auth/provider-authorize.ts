// Where a browser goes to sign in through a provider (GET /sts/login_authorize):
// the provider's authorization endpoint, read by Berth from the discovery
// document of the provider's configured issuer, with the request's parameters.
// The web console uses it so that the browser never fetches anything from the
// provider's origin itself (it only navigates there), and so that the redirect
// URI is checked before the user is sent away. The answer is then redeemed at
// POST /sts/login, where the same redirect rule applies.
import { isValidUid } from '../core/uidp.js';
import { badExchangeRequest } from './errors.js';
import { allowedRedirect, discoveredEndpoint, type LoginDeps, providerOf, REDIRECT_RULE } from './provider-login.js';

export interface AuthorizeRequest {
  identityProvider: string;
  redirectUri: string;
  state: string;
  nonce: string;
  /** base64url SHA-256 of the PKCE code_verifier (S256). */
  codeChallenge: string;
}

const TOKEN = /^[\x21-\x7e]{16,256}$/;
const CHALLENGE = /^[A-Za-z0-9_-]{43}$/;

function check(req: AuthorizeRequest, audience: string): void {
  const bad = (field: string, description: string) => {
    throw badExchangeRequest(field, description);
  };
  if (!isValidUid(req.identityProvider)) bad('identityProvider', 'identityProvider must be an identity provider uid');
  if (!allowedRedirect(req.redirectUri, audience)) bad('redirectUri', `the redirect_uri: ${REDIRECT_RULE}`);
  if (!TOKEN.test(req.state)) bad('state', 'the state: 16 to 256 printable characters');
  if (!TOKEN.test(req.nonce)) bad('nonce', 'the nonce: 16 to 256 printable characters');
  if (!CHALLENGE.test(req.codeChallenge)) bad('codeChallenge', 'the PKCE code_challenge: base64url of a SHA-256 digest (43 characters)');
}

export async function authorizationUrl(deps: LoginDeps, req: AuthorizeRequest): Promise<string> {
  check(req, deps.audience);
  const provider = await providerOf(deps, req.identityProvider);
  const url = await discoveredEndpoint(deps, provider.issuer, 'authorization_endpoint');
  url.searchParams.set('response_type', 'code');
  url.searchParams.set('client_id', provider.clientId);
  url.searchParams.set('redirect_uri', req.redirectUri);
  url.searchParams.set('scope', provider.scopes.join(' '));
  url.searchParams.set('state', req.state);
  url.searchParams.set('nonce', req.nonce);
  url.searchParams.set('code_challenge', req.codeChallenge);
  url.searchParams.set('code_challenge_method', 'S256');
  return url.toString();
}

// Human sign in through an identity provider (POST /sts/login). The CLI runs
// the authorization-code flow with PKCE against the provider itself (it has
// the browser and the loopback redirect) and hands Berth the code, its
// code_verifier, the redirect_uri and the nonce it sent. Berth redeems the
// code at the token endpoint named by the discovery document of the
// provider's configured issuer — never a URL the caller chose — with the
// sealed client secret, which never leaves the server. The ID token that comes
// back is verified (signature by the issuer's JWKS, asymmetric algorithms,
// issuer, audience = clientId, exp, nonce); then IAM registers or updates the
// user and syncs their group bindings (LoginDirectory.signIn), and Berth mints
// a token with a refresh token, as /sts/exchange does.
import { jwtVerify, type JWTPayload } from 'jose';
import { isValidUid } from '../core/uidp.js';
import type { Store } from '../store/store.js';
import { boundedGet, boundedPostForm } from './bounded-fetch.js';
import { badExchangeRequest, loginProviderNotFound, loginProviderUnavailable, loginRefused, loginSecretSealed } from './errors.js';
import type { ExternalIssuers } from './external-issuers.js';
import { isLoopbackHost, outboundUrlProblem } from '../outbound/outbound-policy.js';
import { discoveryUrl, issuerUrlProblem } from './issuer-url.js';
import type { Issuer } from './issuer.js';
import { MAX_SYNC_GROUPS, type LoginDirectory, type LoginProvider } from './login-directory.js';
import type { RefreshTokens } from './refresh-tokens.js';
import { ASYMMETRIC_ALGORITHMS } from './token-algorithms.js';

const DISCOVERY_BOUNDS = { timeoutMs: 5000, maxBytes: 64 * 1024 };
const TOKEN_BOUNDS = { timeoutMs: 10_000, maxBytes: 64 * 1024 };
const MAX_CODE = 2048;
const MAX_REDIRECT_URI = 512;
const MAX_NONCE = 256;
const MAX_NAME = 200;
const MAX_GROUP = 1024;
/** RFC 7636 section 4.1. */
const CODE_VERIFIER = /^[A-Za-z0-9._~-]{43,128}$/;
const PRINTABLE = /^[\x21-\x7e]+$/;

export interface LoginDeps {
  store: Store;
  issuer: Issuer;
  /** The API URL: the audience of the tokens a sign in yields. */
  audience: string;
  externalIssuers: ExternalIssuers;
  directory: LoginDirectory;
  refreshTokens: RefreshTokens;
}

export interface LoginRequest {
  identityProvider: string;
  code: string;
  codeVerifier: string;
  redirectUri: string;
  nonce: string;
}

export interface LoginResult {
  token: string;
  expiry: Date;
  refreshToken: string;
  identity: string;
  /** The user's name in the ID token. */
  name: string;
  /** This sign in created the identity. */
  registered: boolean;
}

/** What a client needs to start the flow: never the client secret. */
export interface LoginSettings {
  identityProvider: string;
  issuer: string;
  clientId: string;
  scopes: string[];
  pkceEnabled: boolean;
}

export async function providerOf(deps: LoginDeps, uid: string): Promise<LoginProvider> {
  if (!isValidUid(uid)) throw badExchangeRequest('identityProvider', 'identityProvider must be an identity provider uid');
  const provider = await deps.directory.provider(uid);
  if (!provider) throw loginProviderNotFound(uid);
  return provider;
}

export async function loginSettings(deps: LoginDeps, uid: string): Promise<LoginSettings> {
  const p = await providerOf(deps, uid);
  return { identityProvider: p.uid, issuer: p.issuer, clientId: p.clientId, scopes: p.scopes, pkceEnabled: p.pkceEnabled };
}

/** Where the web console (served on the API's own origin) receives the provider's answer. */
export function consoleCallback(audience: string): string {
  return new URL('/ui/callback', audience).href;
}

/**
 * The redirect URI: a loopback one for native clients (RFC 8252 section 7.3),
 * or the web console's callback on Berth's own public URL — never another site.
 */
export function allowedRedirect(uri: string, audience: string): boolean {
  if (uri.length > MAX_REDIRECT_URI || !PRINTABLE.test(uri)) return false;
  if (uri === consoleCallback(audience)) return true;
  try {
    const u = new URL(uri);
    return u.protocol === 'http:' && isLoopbackHost(u.hostname) && u.username === '' && u.password === '' && u.hash === '';
  } catch {
    return false;
  }
}

export const REDIRECT_RULE = "an http URL on a loopback host, or the console's /ui/callback on Berth's public URL";

function checkRequest(req: LoginRequest, audience: string): void {
  if (req.code === '' || req.code.length > MAX_CODE || !PRINTABLE.test(req.code))
    badField('code', `the authorization code: 1 to ${MAX_CODE} printable characters`);
  if (!CODE_VERIFIER.test(req.codeVerifier)) badField('codeVerifier', 'the PKCE code_verifier: 43 to 128 characters of [A-Za-z0-9._~-]');
  if (!allowedRedirect(req.redirectUri, audience)) badField('redirectUri', `the redirect_uri of the authorization request: ${REDIRECT_RULE}`);
  if (req.nonce.length < 16 || req.nonce.length > MAX_NONCE || !PRINTABLE.test(req.nonce))
    badField('nonce', `the nonce of the authorization request: 16 to ${MAX_NONCE} printable characters`);
}

function badField(field: string, description: string): never {
  throw badExchangeRequest(field, description);
}

/**
 * An endpoint (token or authorization) of the provider's issuer, from its discovery document,
 * which must name that very issuer. It may be on another origin (Google's is),
 * but only where the outbound policy lets Berth go.
 */
export async function discoveredEndpoint(deps: LoginDeps, issuer: string, field: 'token_endpoint' | 'authorization_endpoint'): Promise<URL> {
  const policy = deps.externalIssuers.policy;
  const problem = issuerUrlProblem(issuer, policy);
  if (problem) throw loginProviderUnavailable(problem);
  let doc: { issuer?: unknown; token_endpoint?: unknown; authorization_endpoint?: unknown } | null;
  try {
    doc = JSON.parse(Buffer.from(await boundedGet(discoveryUrl(issuer), DISCOVERY_BOUNDS, policy, { accept: 'application/json' })).toString('utf8'));
  } catch {
    throw loginProviderUnavailable('its discovery document cannot be read');
  }
  if (doc?.issuer !== issuer) throw loginProviderUnavailable("its discovery document names another issuer than the provider's");
  const value = doc[field];
  if (typeof value !== 'string') throw loginProviderUnavailable(`its discovery document has no ${field}`);
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw loginProviderUnavailable(`its ${field} is not a URL`);
  }
  const refused = outboundUrlProblem(url, policy, `its ${field}`);
  if (refused) throw loginProviderUnavailable(refused);
  return url;
}

/** The ID token the provider returns for the code; loginRefused when it refuses. */
async function redeem(deps: LoginDeps, provider: LoginProvider, req: LoginRequest): Promise<string> {
  const secret = await deps.directory.clientSecret(provider.uid);
  if (secret === undefined) throw loginSecretSealed(provider.uid);
  const endpoint = await discoveredEndpoint(deps, provider.issuer, 'token_endpoint');
  const form = new URLSearchParams({
    grant_type: 'authorization_code',
    code: req.code,
    redirect_uri: req.redirectUri,
    client_id: provider.clientId,
    code_verifier: req.codeVerifier,
  });
  if (secret !== '') form.set('client_secret', secret); // client_secret_post: what every provider accepts
  let answer: { status: number; body: Uint8Array };
  try {
    answer = await boundedPostForm(endpoint, form, TOKEN_BOUNDS, deps.externalIssuers.policy);
  } catch {
    throw loginProviderUnavailable('its token endpoint did not answer');
  }
  let body: { id_token?: unknown; error?: unknown } | null = null;
  try {
    body = JSON.parse(Buffer.from(answer.body).toString('utf8'));
  } catch {
    // not JSON: handled below
  }
  if (answer.status === 400 || answer.status === 401) {
    // The provider's error code (invalid_grant, invalid_client…) is safe to show; its description is not ours to relay.
    const code = typeof body?.error === 'string' && /^[a-z_]{1,64}$/.test(body.error) ? body.error : 'an error';
    throw loginRefused(`the provider answered ${code} for the code`);
  }
  if (answer.status !== 200) throw loginProviderUnavailable(`its token endpoint answered ${answer.status}`);
  if (typeof body?.id_token !== 'string') throw loginRefused('the provider returned no ID token (is openid among the scopes?)');
  return body.id_token;
}

async function verifyIdToken(deps: LoginDeps, provider: LoginProvider, idToken: string, nonce: string): Promise<JWTPayload> {
  let keys: Awaited<ReturnType<ExternalIssuers['keys']>>;
  try {
    keys = await deps.externalIssuers.keys(provider.issuer);
  } catch {
    throw loginProviderUnavailable("its keys cannot be found through the issuer's discovery document");
  }
  let payload: JWTPayload;
  try {
    ({ payload } = await jwtVerify(idToken, keys, {
      issuer: provider.issuer,
      audience: provider.clientId,
      algorithms: ASYMMETRIC_ALGORITHMS,
      requiredClaims: ['exp', 'sub'],
    }));
  } catch {
    throw loginRefused('the ID token is not valid for this provider (signature, issuer, audience or expiry)');
  }
  if (payload.nonce !== nonce) throw loginRefused('the ID token does not carry the nonce of the request');
  if (typeof payload.sub !== 'string' || payload.sub === '' || payload.sub.length > 1024) throw loginRefused('the ID token has no usable subject');
  return payload;
}

/** The groups claim: an array of strings (a single string is one group); anything else is no group. */
function groupsOf(payload: JWTPayload, claim: string): string[] {
  const v = payload[claim];
  const list = typeof v === 'string' ? [v] : Array.isArray(v) ? v : [];
  if (list.length > MAX_SYNC_GROUPS) throw loginRefused(`the ID token lists more than ${MAX_SYNC_GROUPS} groups`);
  return [...new Set(list.filter((g): g is string => typeof g === 'string' && g !== '' && g.length <= MAX_GROUP))];
}

const EMAIL = /^[^\s@]{1,64}@[^\s@]{1,189}$/;

function nameOf(payload: JWTPayload, email: string | undefined): string {
  for (const c of [payload.name, payload.preferred_username, email]) {
    if (typeof c === 'string' && c.trim() !== '') return [...c.trim().replace(/\p{Cc}/gu, '')].slice(0, MAX_NAME).join('');
  }
  return 'user';
}

export async function login(deps: LoginDeps, req: LoginRequest): Promise<LoginResult> {
  if (!isValidUid(req.identityProvider)) badField('identityProvider', 'identityProvider must be an identity provider uid');
  checkRequest(req, deps.audience);
  const provider = await providerOf(deps, req.identityProvider);
  const idToken = await redeem(deps, provider, req);
  const payload = await verifyIdToken(deps, provider, idToken, req.nonce);
  const email = payload.email_verified === true && typeof payload.email === 'string' && EMAIL.test(payload.email) ? payload.email : undefined;
  const name = nameOf(payload, email);
  const { identityUid, registered } = await deps.directory.signIn(provider.uid, {
    issuer: provider.issuer,
    subject: payload.sub as string,
    email,
    name,
    groups: groupsOf(payload, provider.groupsClaim),
  });
  const minted = await deps.issuer.mint(identityUid, deps.audience);
  const refresh = deps.refreshTokens.issue({ identityUid, audience: deps.audience, narrowing: {} });
  return { ...minted, refreshToken: refresh.token, identity: identityUid, name, registered };
}

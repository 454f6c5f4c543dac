// Sign in through an identity provider, authorization code with PKCE: Berth
// names the provider's authorization endpoint (/sts/login_authorize, from the
// issuer's discovery document, fetched by the server: the console makes no
// request off its origin), the browser goes there, comes back to
// /ui/callback, and the console hands the code with its verifier and nonce to
// POST /sts/login, which answers the session token.
import { api, withQuery } from './api.js';

const PENDING = 'berth.login';
export const CALLBACK_PATH = '/ui/callback';

function random(bytes: number): string {
  const b = crypto.getRandomValues(new Uint8Array(bytes));
  return btoa(String.fromCharCode(...b))
    .replace(/\+/g, '-')
    .replace(/\//g, '_')
    .replace(/=+$/, '');
}

async function challengeOf(verifier: string): Promise<string> {
  const hash = new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(verifier)));
  return btoa(String.fromCharCode(...hash))
    .replace(/\+/g, '-')
    .replace(/\//g, '_')
    .replace(/=+$/, '');
}

export async function startProviderLogin(identityProvider: string): Promise<void> {
  const pending = { identityProvider, verifier: random(32), nonce: random(24), state: random(24) };
  const redirectUri = new URL(CALLBACK_PATH, location.origin).href;
  const r = await api<{ authorizationUrl: string }>(
    'GET',
    withQuery('/sts/login_authorize', {
      identityProvider,
      redirectUri,
      state: pending.state,
      nonce: pending.nonce,
      codeChallenge: await challengeOf(pending.verifier),
    }),
  );
  sessionStorage.setItem(PENDING, JSON.stringify(pending));
  location.assign(r.authorizationUrl);
}

/** On /ui/callback: redeems the code; the token, or an error with the API's message. */
export async function finishProviderLogin(query: URLSearchParams): Promise<string> {
  const raw = sessionStorage.getItem(PENDING);
  sessionStorage.removeItem(PENDING);
  if (!raw) throw new Error('No sign in was started in this tab.');
  const pending = JSON.parse(raw) as { identityProvider: string; verifier: string; nonce: string; state: string };
  if (query.get('error')) throw new Error(`The identity provider refused: ${query.get('error_description') ?? query.get('error')}`);
  if (query.get('state') !== pending.state) throw new Error('The sign in answer does not match the sign in started here.');
  const r = await api<{ token: string }>('POST', '/sts/login', {
    identityProvider: pending.identityProvider,
    code: query.get('code') ?? '',
    codeVerifier: pending.verifier,
    redirectUri: new URL(CALLBACK_PATH, location.origin).href,
    nonce: pending.nonce,
  });
  return r.token;
}

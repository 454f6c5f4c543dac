// A real OpenID provider (the oidc-provider package) on a free loopback port,
// for federation tests: Berth finds its keys through its own discovery document
// and JWKS, as it would for any CI system's issuer. The test holds the private
// key the provider signs with, so it can also sign the tokens a provider would
// never issue on its own (expired, not yet valid, tampered) with that very key.
//
// For human sign in it also has a client (`berth`, native, loopback redirect)
// and accounts whose claims the tests set (name, email, groups). Its login
// and consent pages are replaced by a handler that signs in `nextAccount`
// at once, and `browse` plays the browser: it follows the provider's
// redirects with a cookie jar until the provider sends it to the loopback
// redirect URI, whose URL it returns without loading it.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair, SignJWT, type JWTPayload } from 'jose';
// @ts-expect-error: oidc-provider ships no types; only its constructor and callback() are used.
import Provider from 'oidc-provider';

type SigningKey = Awaited<ReturnType<typeof generateKeyPair>>['privateKey'];

export interface AccountClaims {
  name?: string;
  email?: string;
  email_verified?: boolean;
  groups?: string[];
}

export const CLIENT_ID = 'berth-cli';

export interface RealProvider {
  url: string;
  /** The issuer its discovery document names (the URL, unless started with another). */
  issuer: string;
  clientSecret: string;
  /** Claims of the accounts, by subject; edit to change what the next sign in says. */
  accounts: Map<string, AccountClaims>;
  /** The subject the next interaction signs in. */
  nextAccount: string;
  /** Follows an authorization URL as a browser would; the URL of the final redirect to 127.0.0.1 (not loaded). */
  browse(authorizeUrl: string): Promise<string>;
  kid: string;
  key: SigningKey;
  /** A token signed with the provider's key; `exp`/`nbf` in seconds from now (exp 300 unless given). */
  sign(claims: JWTPayload & { sub: string; aud: string }, opts?: { exp?: number; nbf?: number; iss?: string }): Promise<string>;
  close(): Promise<void>;
}

interface OidcProvider {
  callback(): (req: http.IncomingMessage, res: http.ServerResponse) => void;
  interactionDetails(req: http.IncomingMessage, res: http.ServerResponse): Promise<{ params: { client_id: string; scope: string } }>;
  interactionFinished(req: http.IncomingMessage, res: http.ServerResponse, result: object, opts: object): Promise<void>;
  Grant: new (o: { accountId: string; clientId: string }) => { addOIDCScope(scope: string): void; save(): Promise<string> };
}

/**
 * `issuer`: what the provider calls itself, when it should not be its own URL (an issuer mismatch);
 * `redirectUris`: more redirect URIs for the client (the web console's callback).
 */
export async function startOidcProvider(opts: { issuer?: (url: string) => string; redirectUris?: string[] } = {}): Promise<RealProvider> {
  const { privateKey } = await generateKeyPair('RS256', { extractable: true });
  const kid = `k-${Math.random().toString(16).slice(2)}`;
  const privateJwk = { ...(await exportJWK(privateKey)), kid, alg: 'RS256', use: 'sig' };
  let handle: (req: http.IncomingMessage, res: http.ServerResponse) => void = (_q, s) => s.writeHead(503).end();
  const server = http.createServer((req, res) => handle(req, res));
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const issuer = opts.issuer ? opts.issuer(url) : url;
  const clientSecret = `secret-${Math.random().toString(16).slice(2)}`;
  const accounts = new Map<string, AccountClaims>();
  const provider = new Provider(issuer, {
    jwks: { keys: [privateJwk] },
    features: { devInteractions: { enabled: false } },
    clients: [
      {
        client_id: CLIENT_ID,
        client_secret: clientSecret,
        application_type: 'native',
        redirect_uris: ['http://127.0.0.1/callback', ...(opts.redirectUris ?? [])],
        token_endpoint_auth_method: 'client_secret_post',
        grant_types: ['authorization_code'],
        response_types: ['code'],
      },
    ],
    scopes: ['openid', 'email', 'profile', 'groups'],
    claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name'], groups: ['groups'] },
    conformIdTokenClaims: false,
    cookies: { keys: ['test-cookie-key'] },
    findAccount: (_ctx: unknown, sub: string) => (accounts.has(sub) ? { accountId: sub, claims: async () => ({ sub, ...accounts.get(sub) }) } : undefined),
  }) as OidcProvider;
  const real: Pick<RealProvider, 'nextAccount'> = { nextAccount: '' };
  const oidc = provider.callback();
  handle = (req, res) => {
    if (!req.url?.startsWith('/interaction/')) return oidc(req, res);
    void (async () => {
      const details = await provider.interactionDetails(req, res);
      const grant = new provider.Grant({ accountId: real.nextAccount, clientId: details.params.client_id });
      grant.addOIDCScope(details.params.scope);
      const grantId = await grant.save();
      await provider.interactionFinished(req, res, { login: { accountId: real.nextAccount }, consent: { grantId } }, { mergeWithLastSubmission: false });
    })().catch((err: Error) => res.writeHead(500).end(err.message));
  };
  const browse = async (authorizeUrl: string): Promise<string> => {
    const jar = new Map<string, string>();
    let current = new URL(authorizeUrl);
    for (let hop = 0; hop < 20; hop++) {
      if (current.origin !== new URL(url).origin) return current.toString();
      const cookie = [...jar].map(([k, v]) => `${k}=${v}`).join('; ');
      const res = await fetch(current, { redirect: 'manual', headers: cookie ? { cookie } : {} });
      for (const c of res.headers.getSetCookie()) {
        const [pair] = c.split(';');
        const i = pair.indexOf('=');
        jar.set(pair.slice(0, i), pair.slice(i + 1));
      }
      const location = res.headers.get('location');
      if (res.status < 300 || res.status >= 400 || !location)
        throw new Error(`provider answered ${res.status} at ${current.pathname}: ${(await res.text()).slice(0, 300)}`);
      await res.body?.cancel();
      current = new URL(location, current);
    }
    throw new Error('too many redirects');
  };
  const sign: RealProvider['sign'] = (claims, opts = {}) => {
    const now = Math.floor(Date.now() / 1000);
    const jwt = new SignJWT(claims)
      .setProtectedHeader({ alg: 'RS256', kid, typ: 'JWT' })
      .setIssuer(opts.iss ?? url)
      .setIssuedAt(now)
      .setExpirationTime(now + (opts.exp ?? 300));
    if (opts.nbf !== undefined) jwt.setNotBefore(now + opts.nbf);
    return jwt.sign(privateKey);
  };
  return Object.assign(real, {
    url,
    issuer,
    clientSecret,
    accounts,
    browse,
    kid,
    key: privateKey,
    sign,
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  }) as RealProvider;
}

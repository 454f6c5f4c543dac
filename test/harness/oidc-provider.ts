// A real OpenID provider (the oidc-provider package) on a free loopback port,
// for federation tests: Berth finds its keys through its own discovery document
// and JWKS, as it would for any CI system's issuer. The test holds the private
// key the provider signs with, so it can also sign the tokens a provider would
// never issue on its own (expired, not yet valid, tampered) with that very key.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair, SignJWT, type JWTPayload } from 'jose';
// @ts-expect-error: oidc-provider ships no types; only its constructor and callback() are used.
import Provider from 'oidc-provider';

type SigningKey = Awaited<ReturnType<typeof generateKeyPair>>['privateKey'];

export interface RealProvider {
  url: string;
  kid: string;
  key: SigningKey;
  /** A token signed with the provider's key; `exp`/`nbf` in seconds from now (exp 300 unless given). */
  sign(claims: JWTPayload & { sub: string; aud: string }, opts?: { exp?: number; nbf?: number; iss?: string }): Promise<string>;
  close(): Promise<void>;
}

interface OidcProvider {
  callback(): (req: http.IncomingMessage, res: http.ServerResponse) => void;
}

export async function startOidcProvider(): Promise<RealProvider> {
  const { privateKey } = await generateKeyPair('RS256', { extractable: true });
  const kid = `k-${Math.random().toString(16).slice(2)}`;
  const privateJwk = { ...(await exportJWK(privateKey)), kid, alg: 'RS256', use: 'sig' };
  let handle: (req: http.IncomingMessage, res: http.ServerResponse) => void = (_q, s) => s.writeHead(503).end();
  const server = http.createServer((req, res) => handle(req, res));
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const provider = new Provider(url, {
    jwks: { keys: [privateJwk] },
    features: { devInteractions: { enabled: false } },
  }) as OidcProvider;
  handle = provider.callback();
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
  return {
    url,
    kid,
    key: privateKey,
    sign,
    close: () => new Promise((r) => server.close(() => r())),
  };
}

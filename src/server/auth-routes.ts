// The issuer's HTTP surface: OIDC discovery, JWKS, the token exchange, the
// refresh-token rotation and human sign in through an identity provider
// (/sts/login_settings, /sts/login: provider-login.ts; /sts/login_authorize
// for the web console: provider-authorize.ts).
// Discovery also names the registry (berth_registry_url, and its token
// audience berth_registry_audience) when one runs, so the CLI can mint
// registry tokens and configure docker without being told the host.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Logger } from 'pino';
import type { Issuer } from '../auth/issuer.js';
import type { RegistryLocation } from '../runtime/runtime.js';
import { STS_DOMAIN } from '../auth/errors.js';
import { login, loginSettings, type LoginDeps } from '../auth/provider-login.js';
import { authorizationUrl } from '../auth/provider-authorize.js';
import { exchange, exchangeRefreshToken, type ExchangeDeps } from '../auth/sts-exchange.js';
import { errorResponse } from './error-body.js';
import { normalizeError } from './normalize-error.js';
import type { StorageHealth } from '../runtime/storage-health.js';

function params(req: FastifyRequest): URLSearchParams {
  const out = new URL(req.url, 'http://berth.invalid').searchParams;
  const body = req.body;
  if (typeof body === 'string' && body !== '') for (const [k, v] of new URLSearchParams(body)) out.append(k, v);
  else if (body && typeof body === 'object' && !Buffer.isBuffer(body)) {
    for (const [k, v] of Object.entries(body as Record<string, unknown>)) {
      for (const x of Array.isArray(v) ? v : [v]) out.append(k, String(x));
    }
  }
  return out;
}

export async function authRoutes(
  app: FastifyInstance,
  opts: { issuer: Issuer; exchange: ExchangeDeps; login: LoginDeps; logger: Logger; registry?: RegistryLocation; storage?: StorageHealth },
) {
  const registry = opts.registry ? { berth_registry_url: opts.registry.url, berth_registry_audience: opts.registry.audience } : {};
  app.get('/.well-known/openid-configuration', async (_req, reply) => reply.send({ ...opts.issuer.discoveryDocument(), ...registry }));
  app.get('/.well-known/jwks.json', async (_req, reply) => reply.header('cache-control', 'max-age=300').send(opts.issuer.jwksDocument));
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string', bodyLimit: 64 * 1024 }, (_r, body, done) => done(null, body));
  const bearer = (req: FastifyRequest) => /^Bearer\s+(\S+)$/i.exec(req.headers.authorization ?? '')?.[1] ?? '';
  const failed = (reply: FastifyReply, err: unknown, path: string) => {
    const { status, body, headers } = errorResponse(normalizeError(err, STS_DOMAIN, opts.logger, { path }, opts.storage), STS_DOMAIN);
    return reply.code(status).headers(headers).send(body);
  };
  // Parameters come from the query or a form body, repeatable ones as aud=…&aud=… or aud[]=… (the SDK's form).
  const handler = async (req: FastifyRequest, reply: FastifyReply) => {
    try {
      const p = params(req);
      const all = (name: string) => [...p.getAll(name), ...p.getAll(`${name}[]`)];
      const result = await exchange(opts.exchange, {
        assertion: bearer(req),
        audiences: all('aud'),
        identity: p.get('identity') ?? '',
        caps: all('cap'),
        // `scope` is the deprecated single form; SDKs still send the first scope in it.
        scopes: [...all('scopes'), ...all('scope')],
        identityProvider: p.get('identityProvider') ?? p.get('identity_provider') ?? '',
      });
      return reply.send({ token: result.token, refreshToken: result.refreshToken, expiry: result.expiry.toISOString() });
    } catch (err) {
      return failed(reply, err, '/sts/exchange');
    }
  };
  app.get('/sts/exchange', handler);
  app.post('/sts/exchange', { bodyLimit: 64 * 1024 }, handler);
  // The refresh token is the Bearer credential; the new pair has the chain's audience and narrowing.
  app.post('/sts/exchange_refresh_token', { bodyLimit: 64 * 1024 }, async (req, reply) => {
    try {
      const p = params(req);
      const r = await exchangeRefreshToken(opts.exchange, bearer(req), [...p.getAll('aud'), ...p.getAll('aud[]')]);
      const raw = (t: { token: string; expiry: Date }) => ({ token: t.token, expiry: t.expiry.toISOString() });
      return reply.send({ token: raw(r.token), refreshToken: raw(r.refreshToken) });
    } catch (err) {
      return failed(reply, err, '/sts/exchange_refresh_token');
    }
  });
  // What a client needs to start the authorization-code flow with a provider: never its secret.
  app.get('/sts/login_settings', async (req, reply) => {
    try {
      const p = params(req);
      return reply.send(await loginSettings(opts.login, p.get('identityProvider') ?? ''));
    } catch (err) {
      return failed(reply, err, '/sts/login_settings');
    }
  });
  // The provider's authorization URL for a browser (the web console), built from its discovery document.
  app.get('/sts/login_authorize', async (req, reply) => {
    try {
      const p = params(req);
      const url = await authorizationUrl(opts.login, {
        identityProvider: p.get('identityProvider') ?? '',
        redirectUri: p.get('redirectUri') ?? '',
        state: p.get('state') ?? '',
        nonce: p.get('nonce') ?? '',
        codeChallenge: p.get('codeChallenge') ?? '',
      });
      return reply.header('cache-control', 'no-store').send({ authorizationUrl: url });
    } catch (err) {
      return failed(reply, err, '/sts/login_authorize');
    }
  });
  // The code of that flow, its code_verifier, redirect_uri and nonce: Berth redeems it and signs the user in.
  app.post('/sts/login', { bodyLimit: 64 * 1024 }, async (req, reply) => {
    try {
      const p = params(req);
      const r = await login(opts.login, {
        identityProvider: p.get('identityProvider') ?? '',
        code: p.get('code') ?? '',
        codeVerifier: p.get('codeVerifier') ?? '',
        redirectUri: p.get('redirectUri') ?? '',
        nonce: p.get('nonce') ?? '',
      });
      return reply.send({
        token: r.token,
        refreshToken: r.refreshToken,
        expiry: r.expiry.toISOString(),
        identity: r.identity,
        name: r.name,
        registered: r.registered,
      });
    } catch (err) {
      return failed(reply, err, '/sts/login');
    }
  });
  // Logout: the refresh token's whole chain is revoked. Always {}: whether it was live is nobody else's business (RFC 7009).
  app.post('/sts/revoke_refresh_token', { bodyLimit: 64 * 1024 }, async (req, reply) => {
    try {
      await opts.exchange.refreshTokens.revoke(bearer(req));
      return reply.send({});
    } catch (err) {
      return failed(reply, err, '/sts/revoke_refresh_token');
    }
  });
}

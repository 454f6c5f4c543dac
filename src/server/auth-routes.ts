// The issuer's HTTP surface: OIDC discovery, JWKS and the token exchange.
// Discovery also names the registry (berth_registry_url, and its token
// audience berth_registry_audience) when one runs, so the CLI can mint
// registry tokens and configure docker without being told the host.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Logger } from 'pino';
import type { Issuer } from '../auth/issuer.js';
import type { RegistryLocation } from '../runtime/runtime.js';
import { STS_DOMAIN } from '../auth/errors.js';
import { exchange, type ExchangeDeps } from '../auth/sts-exchange.js';
import { errorResponse } from './error-body.js';
import { normalizeError } from './normalize-error.js';

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

export async function authRoutes(app: FastifyInstance, opts: { issuer: Issuer; exchange: ExchangeDeps; logger: Logger; registry?: RegistryLocation }) {
  const registry = opts.registry ? { berth_registry_url: opts.registry.url, berth_registry_audience: opts.registry.audience } : {};
  app.get('/.well-known/openid-configuration', async (_req, reply) => reply.send({ ...opts.issuer.discoveryDocument(), ...registry }));
  app.get('/.well-known/jwks.json', async (_req, reply) => reply.header('cache-control', 'max-age=300').send(opts.issuer.jwksDocument));
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string', bodyLimit: 64 * 1024 }, (_r, body, done) => done(null, body));
  const handler = async (req: FastifyRequest, reply: import('fastify').FastifyReply) => {
    try {
      const p = params(req);
      const m = /^Bearer\s+(\S+)$/i.exec(req.headers.authorization ?? '');
      const result = await exchange(opts.exchange, {
        assertion: m ? m[1] : '',
        audiences: [...p.getAll('aud'), ...p.getAll('aud[]')],
        identity: p.get('identity') ?? '',
      });
      return reply.send({ token: result.token, expiry: result.expiry.toISOString() });
    } catch (err) {
      const { status, body, headers } = errorResponse(normalizeError(err, STS_DOMAIN, opts.logger, { path: '/sts/exchange' }), STS_DOMAIN);
      return reply.code(status).headers(headers).send(body);
    }
  };
  app.get('/sts/exchange', handler);
  app.post('/sts/exchange', { bodyLimit: 64 * 1024 }, handler);
}

// The SCIM 2.0 server (RFC 7644; docs/scim.md) on the API listener:
// /scim/v2/{identity provider uid}/Users, /Groups and the discovery
// resources. Not proto: SCIM is its own protocol, with its own media type
// (application/scim+json), error bodies (§3.12) and bearer token — the
// provider's SCIM token, checked before anything else (scim-bearer.ts), so a
// caller without it learns nothing, not even whether the provider exists.
// Bodies are read here, bounded, and parsed as JSON whatever their declared
// JSON type.
import { Code, type ConnectError } from '@connectrpc/connect';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Logger } from 'pino';
import { httpStatusOf } from '../../core/error-codes.js';
import { isValidUid } from '../../core/uidp.js';
import { authenticateScim } from '../../iam/scim/scim-bearer.js';
import type { ScimContext } from '../../iam/scim/scim-context.js';
import { ScimError, scimInvalidSyntax, scimUnauthorized } from '../../iam/scim/scim-errors.js';
import { SCIM_LIMITS } from '../../iam/scim/scim-schemas.js';
import { scimEndpointUrl } from '../../iam/scim-tokens/scim-state.js';
import type { StorageHealth } from '../../runtime/storage-health.js';
import type { Store } from '../../store/store.js';
import { normalizeError } from '../normalize-error.js';
import { scimOperation, scimPath } from './scim-resource-routes.js';

export const SCIM_MEDIA_TYPE = 'application/scim+json; charset=utf-8';
const DOMAIN = 'scim.berth.dev';

export interface ScimRouteOptions {
  store: Store;
  publicUrl: string;
  logger: Logger;
  storage?: StorageHealth;
}

/** A ConnectError raised by IAM beneath SCIM (a last owner binding, a bad identity field) as a SCIM error. */
function scimErrorOf(err: ConnectError): ScimError {
  const status = httpStatusOf(err.code);
  const detail = err.rawMessage;
  if (status === 400) return new ScimError(400, detail, 'invalidValue');
  // FAILED_PRECONDITION (an organization's last owner binding) is a conflict with the server's state.
  if (err.code === Code.FailedPrecondition) return new ScimError(409, detail);
  return new ScimError(status, detail);
}

export async function scimRoutes(app: FastifyInstance, opts: ScimRouteOptions): Promise<void> {
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: SCIM_LIMITS.bodyBytes }, (_req, body, done) => done(null, body));

  const send = (reply: FastifyReply, status: number, body?: unknown) => {
    reply.code(status);
    if (body === undefined) return reply.send();
    return reply.header('content-type', SCIM_MEDIA_TYPE).send(JSON.stringify(body));
  };
  const failed = (reply: FastifyReply, err: unknown, path: string) => {
    let e: ScimError;
    if (err instanceof ScimError) e = err;
    else {
      const normalized = normalizeError(err, DOMAIN, opts.logger, { path }, opts.storage);
      e = scimErrorOf(normalized);
      if (e.status === 503) reply.header('retry-after', '1');
    }
    return send(reply, e.status, e.body());
  };

  app.setErrorHandler(async (err: { code?: string }, request, reply) => {
    const tooLarge = err.code === 'FST_ERR_CTP_BODY_TOO_LARGE';
    const e = tooLarge
      ? new ScimError(413, `the request body exceeds ${SCIM_LIMITS.bodyBytes} bytes`)
      : scimInvalidSyntax('the request body could not be read');
    if (!tooLarge && !err.code?.startsWith('FST_ERR_CTP')) return failed(reply, err, request.url.split('?')[0]);
    return send(reply, e.status, e.body());
  });

  // One route for every SCIM path: authenticated first, then dispatched (scim-resource-routes.ts).
  app.all('/scim/v2/*', async (req: FastifyRequest, reply: FastifyReply) => {
    const pathname = req.url.split('?')[0];
    try {
      const path = scimPath(pathname);
      if (!path || !isValidUid(path.provider)) throw scimUnauthorized();
      const provider = await authenticateScim(opts.store.db, path.provider, req.headers.authorization);
      const c: ScimContext = { store: opts.store, provider, base: scimEndpointUrl(opts.publicUrl, provider.uid), address: req.ip };
      const out = await scimOperation(req, path)(c, req);
      if (out.location) reply.header('location', out.location);
      return send(reply, out.status ?? 200, out.body);
    } catch (err) {
      return failed(reply, err, pathname);
    }
  });
}

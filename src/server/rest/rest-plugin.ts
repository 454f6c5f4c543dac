// The REST/JSON transport: a Fastify plugin that matches the request against
// the route table, builds the request message and calls the same (guarded)
// implementation the gRPC and Connect handlers call.
import type { StorageHealth } from '../../runtime/storage-health.js';
import type { DescMethod, DescService, Message } from '@bufbuild/protobuf';
import type { HandlerContext, ServiceImpl } from '@connectrpc/connect';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Logger } from 'pino';
import { errorDomainOf, errorDomainOfPath } from '../../core/error-domain.js';
import { errorResponse } from '../error-body.js';
import { normalizeError } from '../normalize-error.js';
import { messageToJson } from '../../core/json-writer.js';
import { restContext } from './rest-context.js';
import { requestTarget } from './request-target.js';
import { buildRequest, parseJsonBody } from './request-message.js';
import { RouteTable, splitPath, type RestRoute } from './route-table.js';
import { badBody, methodNotAllowed, routeNotFound } from '../errors.js';
import { noteRoute, requestRecordOf, type RequestRecord } from '../../core/request-record.js';
import { UNMATCHED_ROUTE } from '../../http/request-observer.js';
import { NOTES_OWN_ROUTE } from '../../http/route-label.js';

export interface RestService {
  service: DescService;
  impl: ServiceImpl<DescService>;
}

export interface RestOptions {
  services: readonly RestService[];
  bodyLimit: number;
  logger: Logger;
  /** Notes a full disk for /healthz. */
  storage?: StorageHealth;
}

const FORWARDED_HEADERS = ['authorization', 'user-agent'] as const;

type Impl = (req: Message, ctx: HandlerContext) => Promise<unknown>;

export async function restPlugin(app: FastifyInstance, opts: RestOptions): Promise<void> {
  const table = new RouteTable(opts.services.map((s) => s.service));
  const impls = new Map<DescMethod, Impl>();
  for (const { service, impl } of opts.services) {
    for (const m of service.methods) {
      const fn = (impl as Record<string, unknown>)[m.localName];
      if (typeof fn === 'function') impls.set(m, fn as Impl);
    }
  }

  // REST bodies are parsed here, so every content type arrives raw and bad
  // JSON becomes a structured error instead of Fastify's default.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: opts.bodyLimit }, (_req, body, done) => done(null, body));

  // Errors Fastify raises before our handler runs (oversize or unreadable
  // bodies) get the same structured body. An oversize body is drained (up to
  // a bound) first so the client can read the answer instead of a reset.
  app.setErrorHandler(async (err: { code?: string; statusCode?: number; message?: string }, request, reply) => {
    const domain = errorDomainOfPath(request.url.split('?')[0]);
    const tooLarge = err.code === 'FST_ERR_CTP_BODY_TOO_LARGE';
    const description = tooLarge ? `the request body exceeds ${opts.bodyLimit} bytes` : 'the request body could not be read';
    if (tooLarge && !request.raw.readableEnded) {
      await new Promise<void>((resolve) => {
        let seen = 0;
        request.raw.on('data', (c: Buffer) => {
          seen += c.length;
          if (seen > 64 * 1024 * 1024) request.raw.destroy();
        });
        request.raw.on('end', resolve);
        request.raw.on('close', resolve);
        request.raw.resume();
      });
    }
    const { status, body } = errorResponse(badBody(domain, description), domain);
    return reply.code(status).header('content-type', 'application/json').send(JSON.stringify(body));
  });

  const handle = async (request: FastifyRequest, reply: FastifyReply) => {
    const url = requestTarget(request.url);
    const found = table.match(request.method, url.pathname);
    const domain = found ? errorDomainOf(found.route.service) : errorDomainOfPath(url.pathname);
    const record = requestRecordOf(request.raw);
    try {
      if (!found) {
        noteRoute(record, UNMATCHED_ROUTE);
        const { segments, verb } = splitPath(url.pathname);
        const allowed = table.allowedMethods(segments, verb);
        if (allowed.length > 0) {
          reply.header('allow', allowed.join(', '));
          throw methodNotAllowed(domain, request.method, allowed);
        }
        throw routeNotFound(domain, request.method, url.pathname);
      }
      const { route, variables } = found;
      noteRoute(record, route.path);
      const body = route.body === '' ? undefined : parseJsonBody(request.body as Buffer | undefined, domain);
      const message = buildRequest(route, variables, url.searchParams, body, domain);
      const out = await call(route, message, request, record);
      return reply.code(200).header('content-type', 'application/json').send(JSON.stringify(out));
    } catch (err) {
      const { status, body, headers } = errorResponse(normalizeError(err, domain, opts.logger, { path: url.pathname }, opts.storage), domain);
      return reply.code(status).headers(headers).header('content-type', 'application/json').send(JSON.stringify(body));
    }
  };

  async function call(route: RestRoute, message: Message, request: FastifyRequest, record: RequestRecord | undefined) {
    const impl = impls.get(route.method);
    if (!impl) throw routeNotFound(errorDomainOf(route.service), request.method, request.url.split('?')[0]);
    // Only the headers implementations read are passed on: copying every
    // header into a Headers object was a measurable share of a small request.
    const headers: Record<string, string> = {};
    for (const name of FORWARDED_HEADERS) {
      const v = request.headers[name];
      if (typeof v === 'string') headers[name] = v;
    }
    const ctx = restContext(route.service, route.method, request.method, request.url, headers, request.ip, record);
    const result = await impl(message, ctx);
    return messageToJson(route.method.output, result as never);
  }

  for (const prefix of table.prefixes()) {
    const versioned = [prefix, prefix.replace(/\/v2$/, '/v2beta1')];
    for (const p of new Set(versioned)) {
      app.route({ method: ['GET', 'POST', 'PATCH', 'DELETE', 'PUT'], url: `${p}/*`, handler: handle, config: NOTES_OWN_ROUTE });
      app.route({ method: ['GET', 'POST', 'PATCH', 'DELETE', 'PUT'], url: p, handler: handle, config: NOTES_OWN_ROUTE });
    }
  }
}

// The API listener: one port for REST/JSON (HTTP/1.1 and h2c), gRPC, gRPC-Web
// and Connect, through the same guarded implementations. It binds before the
// runtime exists (so the default public URL carries the real port) and answers
// the structured UNAVAILABLE until a runtime is attached.
import type http from 'node:http';
import { createRegistry, type DescFile } from '@bufbuild/protobuf';
import { createContextValues } from '@connectrpc/connect';
import { fastifyConnectPlugin } from '@connectrpc/connect-fastify';
import Fastify from 'fastify';
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { Logger } from 'pino';
import { RETRY_AFTER_SECONDS } from '../core/api-error.js';
import { errorDomainOfPath } from '../core/error-domain.js';
import { remoteAddressKey } from '../core/remote-address.js';
import { requestRecordKey, requestRecordOf } from '../core/request-record.js';
import { badRequest } from '../core/request-errors.js';
import type { Runtime } from '../runtime/runtime.js';
import { authRoutes } from './auth-routes.js';
import { IamLoginDirectory } from '../iam/sign-in/iam-login-directory.js';
import { answerClientError, errorResponse } from './error-body.js';
import { badBody, routeNotFound, starting } from './errors.js';
import { http1Server } from '../http/connection-limits.js';
import { DEFAULT_LIMITS, type ConnectionLimits } from '../http/default-limits.js';
import { answerDecodeFailuresAsInvalidArgument } from './decode-failures.js';
import { berthPathOf, deployedAliases } from './alias/alias-services.js';
import { listen, type Listener } from '../http/listener.js';
import type { LoadedCertificate, TlsFiles } from '../http/tls-certificate.js';
import { discardUnreadBody } from '../http/unread-body.js';
import { registerReflection } from './reflection-service.js';
import { restPlugin } from './rest/rest-plugin.js';
import { referenceRoutes } from './openapi/reference-routes.js';
import { scimRoutes } from './scim/scim-routes.js';
import { consoleRoutes } from './console-routes.js';
import { normalizeError } from './normalize-error.js';
import { guard } from './rpc-guard.js';
import { healthz } from '../http/healthz.js';
import { readyz } from '../http/readyz.js';
import { observeRequests } from '../http/request-observer.js';
import { observeRoutes } from '../http/route-label.js';
import { SERVICES } from './services.js';

export interface ApiListenerOptions {
  host: string;
  port: number;
  logger: Logger;
  /** Connection count and timeouts; DEFAULT_LIMITS when absent. */
  limits?: ConnectionLimits;
  /** Largest accepted request body, in bytes. */
  bodyLimit?: number;
  /** An access log line per request (at info level); off when absent. */
  accessLog?: boolean;
  /** Serve TLS with this certificate (--tls-cert, --tls-key); cleartext when absent. */
  tls?: TlsFiles;
}

type RawHandler = (req: http.IncomingMessage, res: http.ServerResponse) => void;

/** A route Fastify serves: its method and URL pattern as registered. */
export interface ServedRoute {
  method: string;
  url: string;
}

/** The structured UNAVAILABLE answered while the server starts. */
export function startingResponse(pathname: string): { status: number; headers: Record<string, string>; body: string } {
  const { status, body, headers } = errorResponse(starting(errorDomainOfPath(pathname)), errorDomainOfPath(pathname));
  return { status, headers: { ...headers, 'content-type': 'application/json', 'retry-after': String(RETRY_AFTER_SECONDS) }, body: JSON.stringify(body) };
}

export class ApiListener {
  private app?: FastifyInstance;
  private handler?: RawHandler;
  /** Alias method paths → Berth's (alias-services.ts). */
  private aliasPaths: ReadonlyMap<string, string> = new Map();
  private readonly served: ServedRoute[] = [];

  private constructor(
    private readonly opts: ApiListenerOptions,
    private readonly h1: http.Server,
    private readonly listener: Listener,
  ) {}

  static async bind(opts: ApiListenerOptions): Promise<ApiListener> {
    const limits = opts.limits ?? DEFAULT_LIMITS;
    const h1 = http1Server(limits);
    let self: ApiListener | undefined;
    const route: RawHandler = (req, res) => {
      discardUnreadBody(req, res);
      if (self?.handler) {
        if (req.url) req.url = berthPathOf(req.url, self.aliasPaths);
        return self.handler(req, res);
      }
      const r = startingResponse(new URL(req.url ?? '/', 'http://berth.invalid').pathname);
      res.writeHead(r.status, r.headers);
      res.end(r.body);
    };
    const observed = observeRequests(route as never, { listener: 'api', logger: opts.logger, accessLog: opts.accessLog ?? false });
    h1.on('request', observed);
    self = new ApiListener(opts, h1, await listen(h1, observed, opts.host, opts.port, limits, { tls: opts.tls }));
    return self;
  }

  /** Where this process listens. */
  get url(): string {
    const host = this.opts.host.includes(':') ? `[${this.opts.host}]` : this.opts.host;
    return `${this.opts.tls ? 'https' : 'http'}://${host}:${this.listener.address.port}`;
  }

  /** The certificate served, when the listener speaks TLS. */
  get certificate(): LoadedCertificate | undefined {
    return this.listener.certificate;
  }

  /** Reads the certificate files again for new connections; throws, keeping the current one, when they cannot be used. */
  reloadCertificate(): LoadedCertificate {
    return this.listener.reloadCertificate();
  }

  /** Every route registered on the Fastify app (Connect's, the REST prefixes, the plain routes). */
  get routes(): readonly ServedRoute[] {
    return this.served;
  }

  /** Serves the runtime's services, discovery, token exchange and health; until then requests get 503. */
  async attach(runtime: Runtime): Promise<void> {
    const bodyLimit = this.opts.bodyLimit ?? 2 * 1024 * 1024;
    const logger = this.opts.logger;
    let fastifyHandler: RawHandler | undefined;
    const app = Fastify({
      logger: false,
      bodyLimit,
      clientErrorHandler: answerClientError,
      // Fastify answers a URL it cannot decode itself, before any handler: same structured body.
      frameworkErrors: (err, request, reply) => {
        const domain = errorDomainOfPath(request.url.split('?')[0]);
        const { status, body } = errorResponse(badRequest(domain, [{ field: 'path', description: err.message.slice(0, 200) }]), domain);
        void (reply as FastifyReply).code(status).header('content-type', 'application/json').send(JSON.stringify(body));
      },
      serverFactory: (handler) => {
        fastifyHandler = handler as RawHandler; // handed requests only once the app is ready
        return this.h1;
      },
    });
    observeRoutes(app); // before any plugin: its routes get the hook
    app.addHook('onRoute', (r) => {
      for (const method of [r.method].flat()) this.served.push({ method, url: r.url ?? '' });
    });
    const guardDeps = { authenticator: runtime.authenticator([runtime.url]), logger, storage: runtime.storage, store: runtime.store };
    const services = SERVICES.map((s) => ({
      service: s.service,
      impl: guard(s.service, s.impl(runtime.services), guardDeps, s.guard?.(runtime.services)),
    }));
    // The same services under the deployed API's gRPC names (gRPC, gRPC-Web and Connect; REST keeps Berth's routes):
    // their paths are rewritten to Berth's before routing (route above).
    const aliases = deployedAliases(services.map((s) => s.service));
    this.aliasPaths = aliases.paths;
    await app.register(fastifyConnectPlugin, {
      routes: (router) => {
        for (const s of services) router.service(s.service, s.impl);
        const listed = [...services.map((s) => s.service), ...aliases.services];
        registerReflection(router, listed, reflectionRegistry(listed.map((s) => s.file)));
        answerDecodeFailuresAsInvalidArgument(router);
      },
      // Where a change came from, for the audit log (src/events/audit/).
      contextValues: (req) => createContextValues().set(remoteAddressKey, req.ip).set(requestRecordKey, requestRecordOf(req.raw)),
      grpc: true,
      grpcWeb: true,
      connect: true,
      readMaxBytes: bodyLimit,
      // Fields Berth does not have (the deployed messages' extra fields) are dropped on decode, never echoed back.
      binaryOptions: { readUnknownFields: false },
      shutdownTimeoutMs: 10_000,
    });
    await app.register(restPlugin, { services, bodyLimit, logger, storage: runtime.storage });
    const exchange = {
      store: runtime.store,
      identities: runtime.identities,
      issuer: runtime.issuer,
      allowedAudiences: runtime.tokenAudiences,
      externalIssuers: runtime.externalIssuers,
      access: runtime.access,
      refreshTokens: runtime.refreshTokens,
    };
    const login = {
      store: runtime.store,
      issuer: runtime.issuer,
      audience: runtime.url,
      externalIssuers: runtime.externalIssuers,
      directory: new IamLoginDirectory(runtime.store, runtime.services.secrets),
      refreshTokens: runtime.refreshTokens,
    };
    await app.register(authRoutes, { issuer: runtime.issuer, exchange, login, logger, registry: runtime.registry, storage: runtime.storage });
    await app.register(scimRoutes, { store: runtime.store, publicUrl: runtime.url, logger, storage: runtime.storage });
    app.get('/healthz', healthz(runtime, logger));
    app.get('/readyz', readyz(runtime.readinessChecks(), logger));
    await app.register(consoleRoutes, { logger });
    await app.register(referenceRoutes);
    // Any other path, under any prefix or none: the structured 404, never the framework's own body.
    app.setNotFoundHandler((request, reply) => {
      const path = request.url.split('?')[0];
      const { status, body } = errorResponse(routeNotFound(errorDomainOfPath(path), request.method, path), errorDomainOfPath(path));
      return reply.code(status).header('content-type', 'application/json').send(JSON.stringify(body));
    });
    app.setErrorHandler((err: { code?: string }, request, reply) => {
      const path = request.url.split('?')[0];
      const domain = errorDomainOfPath(path);
      const cause =
        err.code === 'FST_ERR_CTP_BODY_TOO_LARGE'
          ? badBody(domain, `the request body exceeds ${bodyLimit} bytes`)
          : err.code?.startsWith('FST_ERR_CTP')
            ? badBody(domain, 'the request body could not be read')
            : normalizeError(err, domain, logger, { path }, runtime.storage);
      const { status, body, headers } = errorResponse(cause, domain);
      return reply.code(status).headers(headers).header('content-type', 'application/json').send(JSON.stringify(body));
    });
    await app.ready();
    this.app = app;
    this.handler = fastifyHandler;
  }

  /** Stops accepting, lets in-flight requests finish (up to graceMs), then closes. */
  async close(graceMs: number): Promise<void> {
    await this.listener.close(graceMs);
    await this.app?.close().catch(() => undefined);
  }
}

/** Every file the services' descriptors need, for reflection. */
function reflectionRegistry(roots: readonly DescFile[]) {
  const files = new Map<string, DescFile>();
  const add = (f: DescFile): void => {
    if (files.has(f.name)) return;
    files.set(f.name, f);
    f.dependencies.forEach(add);
  };
  roots.forEach(add);
  return createRegistry(...files.values());
}

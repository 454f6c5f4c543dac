// The registry listener: a second port (HTTP/1.1 only, the API listener's
// connection limits and timeouts) serving the OCI distribution API, the
// Docker token service (/token) and the tag history, attached to the same
// Runtime as the API. Like the API listener it binds before the runtime
// exists (so the default public URL carries the real port) and answers 503
// UNAVAILABLE until attached. Repository routes come from REGISTRY_ROUTES,
// each authorized for the action it declares before it runs
// (route-dispatch.ts); Fastify buffers no registry body.
import type http from 'node:http';
import Fastify from 'fastify';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Logger } from 'pino';
import type { Runtime } from '../runtime/runtime.js';
import { answerClientErrorWith } from '../http/client-errors.js';
import { http1Server } from '../http/connection-limits.js';
import { DEFAULT_LIMITS, type ConnectionLimits } from '../http/default-limits.js';
import { listen, type Listener } from '../http/listener.js';
import type { LoadedCertificate, TlsFiles } from '../http/tls-certificate.js';
import { discardUnreadBody } from '../http/unread-body.js';
import { healthz } from '../http/healthz.js';
import { readyz } from '../http/readyz.js';
import { observeRequests } from '../http/request-observer.js';
import { NOTES_OWN_ROUTE, observeRoutes } from '../http/route-label.js';
import type { BlobStore } from '../registry/blobs/blob-store.js';
import type { ManifestObserver } from '../registry/content/manifest-observer.js';
import { authenticateRegistry, authorizeRepo, type RepoAuthDeps } from './authorize-repo.js';
import { sendOciError, toOciError } from './oci-error-response.js';
import { OciError } from './oci-errors.js';
import { historySegmentProblem, publicOrgProblem, registryPublicUrl, type RegistryConfig } from './registry-config.js';
import type { RegistryContext, RegistryRouteFactory } from './registry-context.js';
import { PullEventLog } from './pull-event-log.js';
import { dispatchRoute } from './route-dispatch.js';
import { OciRouteTable } from './route-table.js';
import { REGISTRY_ROUTES } from './routes.js';
import { tokenRoutes } from './token-route.js';
import { recordDenied } from '../events/audit/denied-attempt.js';

export interface RegistryListenerOptions {
  host: string;
  port: number;
  logger: Logger;
  /** What clients see; default http://<host>:<bound port>. */
  publicUrl?: string;
  publicOrg: string;
  historySegment: string;
  /** Connection count and timeouts; DEFAULT_LIMITS when absent. */
  limits?: ConnectionLimits;
  /** Where blob bytes live (the server opens it, locked to this process, and closes it after the listener). */
  blobs: BlobStore;
  /** Told of every manifest a push creates, in the push's transaction (the runtime composes it: scanning's jobs). */
  manifestObserver?: ManifestObserver;
  /** An access log line per request (at info level); off when absent. */
  accessLog?: boolean;
  /** Serve TLS with this certificate (--registry-tls-cert, --registry-tls-key); cleartext when absent. */
  tls?: TlsFiles;
}

type RawHandler = (req: http.IncomingMessage, res: http.ServerResponse) => void;

const API_VERSION_HEADER = 'docker-distribution-api-version';
const ALL_METHODS = ['GET', 'HEAD', 'PUT', 'POST', 'PATCH', 'DELETE'] as const;

/** The body of an answer to a request Node's parser refused (400, 408, 431); the status line carries the status. */
const ociBody = (_status: number, field: string, description: string) => JSON.stringify(new OciError('REQUEST_INVALID', description, { field }).body());

/** The 503 answered while the server starts. */
function startingResponse(): { status: number; headers: Record<string, string>; body: string } {
  const err = new OciError('UNAVAILABLE', 'starting');
  return { status: err.status, headers: { ...err.headers, 'content-type': 'application/json' }, body: JSON.stringify(err.body()) };
}

export class RegistryListener {
  private app?: FastifyInstance;
  private handler?: RawHandler;

  private constructor(
    private readonly opts: RegistryListenerOptions,
    private readonly h1: http.Server,
    private readonly listener: Listener,
    /** The configuration routes see: public URL, audience host, public org, history segment. */
    readonly config: RegistryConfig,
  ) {}

  static async bind(opts: RegistryListenerOptions): Promise<RegistryListener> {
    const problem = historySegmentProblem(opts.historySegment) ?? publicOrgProblem(opts.publicOrg);
    if (problem) throw new Error(problem);
    if (opts.publicUrl !== undefined && typeof registryPublicUrl(opts.publicUrl) === 'string') throw new Error(registryPublicUrl(opts.publicUrl) as string);
    const limits = opts.limits ?? DEFAULT_LIMITS;
    const h1 = http1Server(limits);
    let self: RegistryListener | undefined;
    const route: RawHandler = (req, res) => {
      discardUnreadBody(req, res);
      if (self?.handler) return self.handler(req, res);
      const r = startingResponse();
      res.writeHead(r.status, r.headers);
      res.end(r.body);
    };
    const observed = observeRequests(route as never, { listener: 'registry', logger: opts.logger, accessLog: opts.accessLog ?? false });
    h1.on('request', observed);
    const listener = await listen(h1, observed, opts.host, opts.port, limits, { http2: false, tls: opts.tls });
    const host = opts.host.includes(':') ? `[${opts.host}]` : opts.host;
    const pub = registryPublicUrl(opts.publicUrl ?? `${opts.tls ? 'https' : 'http'}://${host}:${listener.address.port}`);
    if (typeof pub === 'string') {
      await listener.close(0);
      throw new Error(pub);
    }
    self = new RegistryListener(opts, h1, listener, { publicUrl: pub.url, host: pub.host, publicOrg: opts.publicOrg, historySegment: opts.historySegment });
    return self;
  }

  /** Where this process listens. */
  get listenUrl(): string {
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

  /** Serves /v2/, /token and the repository routes for the runtime; until then requests get 503. */
  async attach(runtime: Runtime, routes: readonly RegistryRouteFactory[] = REGISTRY_ROUTES): Promise<void> {
    const logger = this.opts.logger;
    const config = this.config;
    let fastifyHandler: RawHandler | undefined;
    const app = Fastify({
      logger: false,
      bodyLimit: 64 * 1024,
      clientErrorHandler: answerClientErrorWith(ociBody),
      frameworkErrors: (err, _request, reply) => {
        void sendOciError(reply as FastifyReply, new OciError('REQUEST_INVALID', `the request URL is not valid: ${err.message.slice(0, 200)}`));
      },
      serverFactory: (handler) => {
        fastifyHandler = handler as RawHandler;
        return this.h1;
      },
    });
    // No body is parsed for the registry's routes: a handler reads request.raw
    // (streamed, or bounded through readBody). /token parses its own form.
    app.removeAllContentTypeParsers();
    app.addContentTypeParser('*', (_request, _payload, done) => done(null));
    app.addHook('onRequest', async (request, reply) => {
      if (request.url === '/v2' || request.url.startsWith('/v2/') || request.url.startsWith('/v2?')) reply.header(API_VERSION_HEADER, 'registry/2.0');
    });

    // Set before any route: a route keeps the error handler in force when it is added.
    app.setNotFoundHandler((request, reply) => {
      const path = request.url.split('?')[0];
      return sendOciError(reply, new OciError('NAME_UNKNOWN', `no route for ${request.method} ${path.slice(0, 200)}`));
    });
    app.setErrorHandler((err, request, reply) =>
      sendOciError(reply, toOciError(err, logger, { method: request.method, path: request.url.split('?')[0] }, runtime.storage)),
    );
    observeRoutes(app);

    const authDeps: RepoAuthDeps = {
      config,
      issuer: runtime.issuer,
      access: runtime.access,
      db: runtime.store.db,
      knownAudiences: runtime.tokenAudiences,
      onRefused: (r) =>
        recordDenied(runtime.store, logger, {
          at: r.at,
          identity: r.identity,
          action: `registry.${r.action}`,
          resourceType: 'registry.repo',
          resourceName: r.name,
          address: r.address,
        }),
    };
    const ctx: RegistryContext = {
      runtime,
      config,
      logger,
      blobs: this.opts.blobs,
      pullEvents: new PullEventLog(runtime.store),
      manifestObserver: this.opts.manifestObserver,
      authorizeRepo: (request, name, action) => authorizeRepo(request, name, action, authDeps),
    };
    const table = new OciRouteTable();
    for (const make of routes) table.add(make(ctx));

    const base = async (request: FastifyRequest, reply: FastifyReply) => {
      await authenticateRegistry(request, authDeps);
      return reply.code(200).header('content-type', 'application/json').send('{}');
    };
    app.route({ method: ['GET', 'HEAD'], url: '/v2/', handler: base });
    app.route({ method: ['GET', 'HEAD'], url: '/v2', handler: base });
    app.get('/healthz', healthz(runtime, logger)); // the API's answer, for probes that see only this port
    app.get('/readyz', readyz(runtime.readinessChecks(), logger));

    app.route({
      method: [...ALL_METHODS],
      url: '/v2/*',
      config: NOTES_OWN_ROUTE,
      handler: (request, reply) => dispatchRoute(table, ctx.authorizeRepo, request, reply),
    });

    await app.register(async (scope) => tokenRoutes(scope, ctx));

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

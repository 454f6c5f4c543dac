// Builds a running Berth API server: store, issuer, first start, then one
// Fastify app serving gRPC, gRPC-Web and Connect (Connect-ES) and REST/JSON
// (the transcoder) through the same guarded implementations, on one port.
import type http from 'node:http';
import { createRegistry, type DescFile } from '@bufbuild/protobuf';
import { fastifyConnectPlugin } from '@connectrpc/connect-fastify';
import Fastify from 'fastify';
import type { Logger } from 'pino';
import { guard } from '../auth/iam-guard.js';
import { Issuer } from '../auth/issuer.js';
import { PageTokens } from '../core/page-token.js';
import { firstStart, syncBuiltinRoles, type FirstStartResult } from '../iam/first-start.js';
import { sharedSecret } from '../store/settings-store.js';
import { CountCache } from '../store/count-cache.js';
import { openStore, type Store } from '../store/store.js';
import { authRoutes } from './auth-routes.js';
import { answerClientError } from './client-errors.js';
import { answerDecodeFailuresAsInvalidArgument } from './decode-failures.js';
import { DEFAULT_LIMITS, http1Server, type ConnectionLimits } from './connection-limits.js';
import { listen, type Listener } from './listener.js';
import { discardUnreadBody } from './unread-body.js';
import { registerReflection } from './reflection-service.js';
import { restPlugin } from './rest/rest-plugin.js';
import { allServices } from './services.js';

export interface ServeOptions {
  host: string;
  port: number;
  dataDir: string;
  databaseUrl?: string;
  /** The URL clients reach this API at; also the token issuer and audience. */
  publicUrl?: string;
  org: string;
  logger: Logger;
  /** Largest accepted request body, in bytes. */
  bodyLimit?: number;
  /** Connection count and timeouts; DEFAULT_LIMITS when absent. */
  limits?: ConnectionLimits;
}

export interface RunningServer {
  /** The public URL (issuer, audience). */
  url: string;
  /** Where this process listens. */
  listenUrl: string;
  store: Store;
  firstStart?: FirstStartResult;
  close(): Promise<void>;
}

export async function startServer(opts: ServeOptions): Promise<RunningServer> {
  const store = await openStore({ databaseUrl: opts.databaseUrl, dataDir: opts.dataDir });
  let listener: Listener | undefined;
  try {
    const bodyLimit = opts.bodyLimit ?? 2 * 1024 * 1024;
    const limits = opts.limits ?? DEFAULT_LIMITS;
    let h1!: http.Server;
    let fastifyHandler!: http.RequestListener;
    const app = Fastify({
      logger: false,
      bodyLimit,
      clientErrorHandler: answerClientError,
      serverFactory: (handler) => {
        fastifyHandler = handler;
        h1 = http1Server(limits);
        return h1;
      },
    });
    // Bound first so the default public URL carries the real port; requests
    // that arrive before the routes are ready get 503.
    let ready = false;
    const route = (req: http.IncomingMessage, res: http.ServerResponse) => {
      discardUnreadBody(req, res);
      if (ready) return fastifyHandler(req, res);
      res.writeHead(503, { 'content-type': 'application/json', 'retry-after': '1' });
      res.end('{"code":14,"message":"Unavailable: starting","details":[]}');
    };
    h1.on('request', route);
    listener = await listen(h1, route as never, opts.host, opts.port, limits);
    const listenUrl = `http://${opts.host.includes(':') ? `[${opts.host}]` : opts.host}:${listener.address.port}`;
    const url = (opts.publicUrl ?? listenUrl).replace(/\/$/, '');
    const issuer = await Issuer.open(store, url);
    const pageTokens = new PageTokens(await sharedSecret(store, 'page-token-key'));
    await syncBuiltinRoles(store);
    const first = await firstStart(store, opts.org, opts.dataDir, url);

    const deps = { store, pageTokens, counts: new CountCache() };
    const guardDeps = { store, issuer, audience: url, logger: opts.logger };
    const services = allServices(deps).map((s) => ({ service: s.service, impl: guard(s.service, s.impl, guardDeps) }));
    const files = new Map<string, DescFile>();
    const addFile = (f: DescFile): void => {
      if (files.has(f.name)) return;
      files.set(f.name, f);
      f.dependencies.forEach(addFile);
    };
    services.forEach((s) => addFile(s.service.file));
    const registry = createRegistry(...files.values()); // with dependencies, for reflection

    await app.register(fastifyConnectPlugin, {
      routes: (router) => {
        for (const s of services) router.service(s.service, s.impl);
        registerReflection(router, services.map((s) => s.service), registry);
        answerDecodeFailuresAsInvalidArgument(router);
      },
      grpc: true,
      grpcWeb: true,
      connect: true,
      readMaxBytes: bodyLimit,
      shutdownTimeoutMs: 10_000,
    });
    await app.register(restPlugin, { services, bodyLimit, logger: opts.logger });
    await app.register(authRoutes, { issuer, exchange: { store, issuer, allowedAudiences: [url] }, logger: opts.logger });
    app.get('/healthz', async (_req, reply) => {
      await store.db.selectFrom('settings').select('key').limit(1).execute();
      return reply.send({ status: 'ok' });
    });
    await app.ready();
    ready = true;

    let closed = false;
    return {
      url,
      listenUrl,
      store,
      firstStart: first,
      async close() {
        if (closed) return;
        closed = true;
        await listener?.close(10_000);
        await app.close().catch(() => undefined);
        await store.close();
      },
    };
  } catch (err) {
    await listener?.close(0);
    await store.close();
    throw err;
  }
}

// Builds a running Berth API server: store, issuer, first start, then one
// Fastify app serving gRPC, gRPC-Web and Connect (Connect-ES) and REST/JSON
// (the transcoder) through the same guarded implementations, on one port.
import http from 'node:http';
import { createRegistry, type DescFile } from '@bufbuild/protobuf';
import { fastifyConnectPlugin } from '@connectrpc/connect-fastify';
import Fastify from 'fastify';
import type { Logger } from 'pino';
import { Authenticator } from '../auth/authenticate.js';
import { guard } from './rpc-guard.js';
import { IamAccessDirectory } from '../iam/access/iam-access-directory.js';
import { IamExchangeDirectory } from '../iam/access/iam-exchange-directory.js';
import { ExternalIssuers } from '../auth/external-issuers.js';
import { Issuer } from '../auth/issuer.js';
import { secretsKeyFrom } from '../auth/secret-sealing.js';
import { RETRY_AFTER_SECONDS } from '../core/api-error.js';
import { PageTokens } from '../core/page-token.js';
import { firstStart, syncBuiltinRoles, type FirstStartResult } from '../iam/first-start.js';
import { sharedSecret } from '../store/settings-store.js';
import { ListTotals } from '../list/list-totals.js';
import { openStore, type Store } from '../store/store.js';
import type { OrgCreationPolicy } from '../runtime/service-deps.js';
import { authRoutes } from './auth-routes.js';
import { listen, type Listener } from './listener.js';
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
  /** Who may create root organizations through the API. */
  orgCreation?: OrgCreationPolicy;
  /** Operator's key (--secrets-key-file / BERTH_SECRETS_KEY) sealing private keys at rest. */
  secretsKey?: string;
  /** Plain-http OIDC discovery for loopback issuers matched by a claimMatch issuer pattern (tests, local development). */
  allowInsecureIssuers?: boolean;
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
  const store = await openStore({ databaseUrl: opts.databaseUrl, dataDir: opts.dataDir, logger: opts.logger });
  let listener: Listener | undefined;
  try {
    const bodyLimit = opts.bodyLimit ?? 2 * 1024 * 1024;
    let h1!: http.Server;
    let fastifyHandler!: http.RequestListener;
    const app = Fastify({
      logger: false,
      bodyLimit,
      serverFactory: (handler) => {
        fastifyHandler = handler;
        h1 = http.createServer({ requestTimeout: 60_000, headersTimeout: 20_000 });
        return h1;
      },
    });
    // Bound first so the default public URL carries the real port; requests
    // that arrive before the routes are ready get 503.
    let ready = false;
    const route = (req: http.IncomingMessage, res: http.ServerResponse) => {
      if (ready) return fastifyHandler(req, res);
      res.writeHead(503, { 'content-type': 'application/json', 'retry-after': '1' });
      res.end('{"code":14,"message":"Unavailable: starting","details":[]}');
    };
    h1.on('request', route);
    listener = await listen(h1, route as never, opts.host, opts.port);
    const listenUrl = `http://${opts.host.includes(':') ? `[${opts.host}]` : opts.host}:${listener.address.port}`;
    const url = (opts.publicUrl ?? listenUrl).replace(/\/$/, '');
    const issuer = await Issuer.open(store, url, opts.secretsKey === undefined ? undefined : secretsKeyFrom(opts.secretsKey));
    const pageTokens = new PageTokens(await sharedSecret(store, 'page-token-key'));
    await syncBuiltinRoles(store);
    const first = await firstStart(store, opts.org, opts.dataDir, url);

    const deps = { store, pageTokens, counts: new ListTotals(), orgCreation: opts.orgCreation ?? 'owners' };
    const guardDeps = { authenticator: new Authenticator(issuer, new IamAccessDirectory(store), [url]), logger: opts.logger };
    const services = allServices(deps).map((s) => ({ service: s.service, impl: guard(s.service, s.impl, guardDeps, s.preflights) }));
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
      },
      grpc: true,
      grpcWeb: true,
      connect: true,
      readMaxBytes: bodyLimit,
      shutdownTimeoutMs: 10_000,
    });
    await app.register(restPlugin, { services, bodyLimit, logger: opts.logger });
    const externalIssuers = new ExternalIssuers({ allowInsecureLoopback: opts.allowInsecureIssuers ?? false });
    await app.register(authRoutes, { issuer, exchange: { store, identities: new IamExchangeDirectory(store), issuer, allowedAudiences: [url], externalIssuers }, logger: opts.logger });
    // Unauthenticated: the cause of a failure goes to the log, never to the caller.
    app.get('/healthz', async (_req, reply) => {
      try {
        await store.db.selectFrom('settings').select('key').limit(1).execute();
        return reply.send({ status: 'ok' });
      } catch (err) {
        opts.logger.warn({ err }, 'health check failed');
        return reply.code(503).header('retry-after', String(RETRY_AFTER_SECONDS)).send({ status: 'unavailable' });
      }
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

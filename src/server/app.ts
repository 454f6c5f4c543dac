// Starts Berth: the store, the API listener (bound first so the default public
// URL carries the real port), the runtime, then the listener attached to it.
// Closing runs the other way: listeners drain, workers stop, the store closes.
import type { Logger } from 'pino';
import type { FirstStartResult } from '../iam/first-start.js';
import { Runtime } from '../runtime/runtime.js';
import type { OrgCreationPolicy } from '../runtime/service-deps.js';
import { openStore, type Store } from '../store/store.js';
import { ApiListener } from './api-listener.js';
import type { ConnectionLimits } from './connection-limits.js';

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

const DRAIN_MS = 10_000;

export async function startServer(opts: ServeOptions): Promise<RunningServer> {
  const store = await openStore({ databaseUrl: opts.databaseUrl, dataDir: opts.dataDir, logger: opts.logger });
  let api: ApiListener | undefined;
  let runtime: Runtime | undefined;
  try {
    api = await ApiListener.bind({ host: opts.host, port: opts.port, logger: opts.logger, bodyLimit: opts.bodyLimit, limits: opts.limits });
    const url = (opts.publicUrl ?? api.url).replace(/\/$/, '');
    runtime = await Runtime.start(store, {
      url,
      org: opts.org,
      dataDir: opts.dataDir,
      logger: opts.logger,
      orgCreation: opts.orgCreation,
      secretsKey: opts.secretsKey,
      allowInsecureIssuers: opts.allowInsecureIssuers,
    });
    await api.attach(runtime);
  } catch (err) {
    await api?.close(0);
    if (runtime) await runtime.stop();
    else await store.close();
    throw err;
  }
  const [listener, rt] = [api, runtime];
  let closed = false;
  return {
    url: rt.url,
    listenUrl: listener.url,
    store,
    firstStart: rt.firstStart,
    async close() {
      if (closed) return;
      closed = true;
      await listener.close(DRAIN_MS);
      await rt.stop();
    },
  };
}

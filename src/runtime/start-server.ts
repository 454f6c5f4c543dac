// Starts Berth: the store, the API and registry listeners (bound first so the
// default public URLs carry the real ports), the runtime, then the listeners
// attached to it, then the event delivery worker and the scan worker. Closing runs the other way:
// both listeners drain, workers stop, the store closes.
import type { Logger } from 'pino';
import type { FirstStartResult } from '../iam/first-start.js';
import { Runtime } from './runtime.js';
import type { OrgCreationPolicy } from './service-deps.js';
import type { TermsDocument } from '../iam/terms/terms-documents.js';
import { openStore, type Store } from '../store/store.js';
import { REGISTRY_REQUEST_TIMEOUT_MS } from '../oci/registry-config.js';
import { RegistryListener } from '../oci/registry-listener.js';
import type { BlobStore } from '../registry/blobs/blob-store.js';
import { MeasuredBlobStore } from '../registry/blobs/measured-blob-store.js';
import { type BlobStoreSpec, type ClosableBlobStore, openFsBlobStore, openS3BlobStore } from '../registry/blobs/open-blob-store.js';
import { metrics } from '../core/metrics.js';
import { publishQueueGauges } from './queue-gauges.js';
import { ApiListener, type ServedRoute } from '../server/api-listener.js';
import { DEFAULT_LIMITS, type ConnectionLimits } from '../http/default-limits.js';
import type { TlsFiles } from '../http/tls-certificate.js';
import type { EventSettings } from '../events/event-settings.js';
import { AuditRetention } from '../events/audit/audit-retention.js';
import { DeliveryWorker } from '../events/delivery-worker/delivery-worker.js';
import { scanJobKinds } from '../scanning/jobs/job-kinds.js';
import { scanObserver } from '../scanning/jobs/scan-observer.js';
import { ScanWorker } from '../scanning/jobs/scan-worker.js';
import { AdvisoryFollower } from '../scanning/reports/advisory-follower.js';

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
  /** The registry listener; none when absent (`--registry-listen off`). */
  registry?: RegistryServeOptions;
  /** The legal documents groups may accept (`--terms-file`). */
  termsDocuments?: readonly TermsDocument[];
  /** Event namespace, delivery audience and limits; DEFAULT_EVENT_SETTINGS when absent. */
  events?: EventSettings;
  /** --feed-requires-auth: the advisory feed (/advisory/v2) asks for a valid token. */
  feedRequiresAuth?: boolean;
  /** Where registry blobs live (`--blob-store`); the filesystem under dataDir when absent. */
  blobStore?: BlobStoreSpec;
  /** An access log line per request on both listeners (--access-log). */
  accessLog?: boolean;
  /** The API listener's certificate (--tls-cert, --tls-key); cleartext when absent. */
  tls?: TlsFiles;
}

export interface RegistryServeOptions {
  host: string;
  port: number;
  /** What clients see; default http://<registry listen address with the real port>. Its host is the registry's token audience. */
  publicUrl?: string;
  /** The organization whose free-tier tags anyone may pull. */
  publicOrg: string;
  /** The path segment of the tag history route (`_berth`). */
  historySegment: string;
  /** Longest one registry request may take (blob uploads are long); REGISTRY_REQUEST_TIMEOUT_MS when absent. */
  requestTimeoutMs?: number;
  /** The registry listener's certificate (--registry-tls-cert, --registry-tls-key); cleartext when absent. */
  tls?: TlsFiles;
}

export interface RunningServer {
  /** The public URL (issuer, audience). */
  url: string;
  /** Where this process listens. */
  listenUrl: string;
  /** The registry's public URL; undefined when the registry is off. */
  registryUrl?: string;
  /** Where the registry listens; undefined when the registry is off. */
  registryListenUrl?: string;
  store: Store;
  firstStart?: FirstStartResult;
  /** Every HTTP route the API listener's Fastify serves (what test/api/openapi.test.ts holds the OpenAPI document to). */
  apiRoutes: readonly ServedRoute[];
  /** Reads each TLS listener's certificate files again (SIGHUP); a listener whose new files fail keeps its certificate, and the failure is logged. */
  reloadCertificates(): void;
  close(): Promise<void>;
}

const DRAIN_MS = 10_000;

export async function startServer(opts: ServeOptions): Promise<RunningServer> {
  // The blob store first: a second server on this --data stops here, before it opens or binds anything.
  const spec = opts.blobStore ?? { kind: 'filesystem' };
  let driver: ClosableBlobStore | undefined = opts.registry ? await openFsBlobStore(spec, opts.dataDir, true) : undefined;
  let store: Store;
  try {
    store = await openStore({ databaseUrl: opts.databaseUrl, dataDir: opts.dataDir, logger: opts.logger });
  } catch (err) {
    await driver?.close();
    throw err;
  }
  // The S3 store keeps its upload state in the database.
  if (opts.registry && spec.kind === 's3') driver = await openS3BlobStore(spec, store);
  const m = metrics();
  // Everything but close() goes through the measured store when metrics are on.
  const blobs: BlobStore | undefined = driver && m ? new MeasuredBlobStore(driver, m) : driver;
  let api: ApiListener | undefined;
  let registry: RegistryListener | undefined;
  let runtime: Runtime | undefined;
  const scanKinds = scanJobKinds();
  try {
    api = await ApiListener.bind({
      host: opts.host,
      port: opts.port,
      logger: opts.logger,
      bodyLimit: opts.bodyLimit,
      limits: opts.limits,
      accessLog: opts.accessLog,
      tls: opts.tls,
    });
    if (opts.registry)
      registry = await RegistryListener.bind({
        ...opts.registry,
        logger: opts.logger,
        accessLog: opts.accessLog,
        limits: { ...(opts.limits ?? DEFAULT_LIMITS), requestTimeoutMs: opts.registry.requestTimeoutMs ?? REGISTRY_REQUEST_TIMEOUT_MS },
        blobs: blobs as BlobStore,
        // A push queues its scan jobs in its own transaction.
        manifestObserver: scanObserver(scanKinds),
      });
    const url = (opts.publicUrl ?? api.url).replace(/\/$/, '');
    runtime = await Runtime.start(store, {
      url,
      org: opts.org,
      dataDir: opts.dataDir,
      logger: opts.logger,
      orgCreation: opts.orgCreation,
      secretsKey: opts.secretsKey,
      allowInsecureIssuers: opts.allowInsecureIssuers,
      registryAudience: registry?.config.host,
      registryUrl: registry?.config.publicUrl,
      termsDocuments: opts.termsDocuments,
      events: opts.events,
      feedRequiresAuth: opts.feedRequiresAuth,
      blobs,
    });
    await api.attach(runtime);
    await registry?.attach(runtime);
    // Every instance delivers events (they share the work through the database).
    runtime.addWorker(
      new DeliveryWorker({
        store,
        issuer: runtime.issuer,
        url,
        events: runtime.services.events,
        secrets: runtime.services.secrets,
        logger: opts.logger,
      }),
    );
    // Every instance prunes the audit log (deletes are idempotent).
    runtime.addWorker(new AuditRetention({ store, logger: opts.logger, retentionMs: runtime.services.events.auditRetentionMs }));
    // Every instance with a registry scans (they share the jobs through the database).
    if (blobs) runtime.addWorker(new ScanWorker({ store, blobs, logger: opts.logger, kinds: scanKinds }));
    // Reports follow advisory changes: the images they touch are queued for a re-match.
    if (blobs) runtime.addWorker(new AdvisoryFollower({ store, logger: opts.logger }));
    publishQueueGauges(store, blobs !== undefined);
  } catch (err) {
    await Promise.all([api?.close(0), registry?.close(0)]);
    if (runtime) await runtime.stop();
    else await store.close();
    await driver?.close();
    throw err;
  }
  const [listener, reg, rt] = [api, registry, runtime];
  let closed = false;
  return {
    url: rt.url,
    listenUrl: listener.url,
    registryUrl: reg?.config.publicUrl,
    registryListenUrl: reg?.listenUrl,
    store,
    firstStart: rt.firstStart,
    apiRoutes: listener.routes,
    reloadCertificates() {
      for (const [name, l] of [
        ['api', listener],
        ['registry', reg],
      ] as const) {
        if (!l?.certificate) continue;
        try {
          const cert = l.reloadCertificate();
          opts.logger.info({ listener: name, subject: cert.subject, validTo: cert.validTo.toISOString() }, 'TLS certificate reloaded');
        } catch (err) {
          opts.logger.error({ listener: name, err: (err as Error).message }, 'TLS certificate reload failed: the current certificate stays in use');
        }
      }
    },
    async close() {
      if (closed) return;
      closed = true;
      // Both drain at once, each bounded, before the runtime (and its store) goes.
      await Promise.all([listener.close(DRAIN_MS), reg?.close(DRAIN_MS)]);
      await rt.stop();
      await driver?.close();
    },
  };
}

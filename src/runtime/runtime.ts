// Everything a Berth process holds once, whatever listeners it runs: the
// store, the issuer and its keys, the page-token key, the IAM directories auth
// reads through, the services' dependencies, and background workers (event
// delivery will be one). Listeners (the API today, the registry next) attach
// to a runtime; shutdown is ordered: listeners drain first (their owner closes
// them), then workers stop, then the store closes.
import { StorageHealth } from './storage-health.js';
import type { ReadinessCheck } from '../http/readyz.js';
import { readinessChecks } from './readiness.js';
import type { Logger } from 'pino';
import { Authenticator } from '../auth/authenticate.js';
import { ExternalIssuers } from '../auth/external-issuers.js';
import { Issuer } from '../auth/issuer.js';
import { RefreshTokens } from '../auth/refresh-tokens.js';
import { secretsKeyFrom } from '../auth/secret-sealing.js';
import { PageTokens } from '../list/page-token.js';
import { IamAccessDirectory } from '../iam/access/iam-access-directory.js';
import { IamExchangeDirectory } from '../iam/access/iam-exchange-directory.js';
import { firstStart, syncBuiltinRoles, type FirstStartResult } from '../iam/first-start.js';
import { ListTotals } from '../list/list-totals.js';
import { PUBLIC_URL_SETTING, putSetting, sharedSecret } from '../store/settings-store.js';
import type { Store } from '../store/store.js';
import type { BlobStore } from '../registry/blobs/blob-store.js';
import type { OrgCreationPolicy, ServiceDeps } from './service-deps.js';
import type { TermsDocument } from '../iam/terms/terms-documents.js';
import { DEFAULT_EVENT_SETTINGS, type EventSettings } from '../events/event-settings.js';

export interface RuntimeOptions {
  /** The URL clients reach the API at: token issuer and API audience. */
  url: string;
  /** Organization created on first start. */
  org: string;
  dataDir: string;
  logger: Logger;
  orgCreation?: OrgCreationPolicy;
  /** Operator's key sealing private keys at rest. */
  secretsKey?: string;
  /** Plain-http OIDC discovery for loopback issuers matched by a pattern. */
  allowInsecureIssuers?: boolean;
  /** The registry's audience (its public host[:port]) when a registry listener runs. */
  registryAudience?: string;
  /** The registry's public URL when a registry listener runs (announced in discovery for the CLI). */
  registryUrl?: string;
  /** The legal documents groups may accept (`--terms-file`). */
  termsDocuments?: readonly TermsDocument[];
  /** Event namespace, delivery audience and limits; DEFAULT_EVENT_SETTINGS when absent. */
  events?: EventSettings;
  /** --feed-requires-auth: the advisory feed asks for a valid token. */
  feedRequiresAuth?: boolean;
  /** The registry's blob store (ServiceDeps.blobs). */
  blobs?: BlobStore;
}

/** Where the registry is, as clients name it. */
export interface RegistryLocation {
  url: string;
  /** host[:port]: the registry token audience. */
  audience: string;
}

/** Work that runs beside the listeners, started and stopped with the runtime. */
export interface BackgroundWorker {
  readonly name: string;
  start(): void;
  /** Finishes or abandons in-flight work; must settle within the runtime's stop bound. */
  stop(): Promise<void>;
}

const WORKER_STOP_MS = 10_000;

export class Runtime {
  private readonly workers: BackgroundWorker[] = [];
  private stopped = false;
  private readiness?: readonly ReadinessCheck[];
  /** Whether writes fail for lack of space (for /healthz and the error mappers). */
  readonly storage: StorageHealth;

  private constructor(
    readonly store: Store,
    readonly url: string,
    readonly logger: Logger,
    readonly issuer: Issuer,
    readonly services: ServiceDeps,
    readonly access: IamAccessDirectory,
    readonly identities: IamExchangeDirectory,
    readonly externalIssuers: ExternalIssuers,
    readonly firstStart: FirstStartResult | undefined,
    /** Every audience Berth mints tokens for: the API URL, then the registry host when there is a registry. */
    readonly tokenAudiences: readonly string[],
    /** The registry, when this process runs one. */
    readonly registry: RegistryLocation | undefined,
    readonly refreshTokens: RefreshTokens,
    dataDir: string,
  ) {
    this.storage = new StorageHealth(dataDir, logger);
  }

  /** What GET /readyz checks (readiness.ts), made once: the migrations check remembers its success. */
  readinessChecks(): readonly ReadinessCheck[] {
    this.readiness ??= readinessChecks(this.store, () => this.probe(), this.services.blobs);
    return this.readiness;
  }

  /** Resolves once the database answered a read (GET /healthz). */
  async probe(): Promise<void> {
    await this.store.db.selectFrom('settings').select('key').limit(1).execute();
  }

  /** Opens everything on a migrated store; on an empty database, runs first start. */
  static async start(store: Store, opts: RuntimeOptions): Promise<Runtime> {
    const secrets = opts.secretsKey === undefined ? undefined : secretsKeyFrom(opts.secretsKey);
    const issuer = await Issuer.open(store, opts.url, secrets);
    const pageTokens = new PageTokens(await sharedSecret(store, 'page-token-key'));
    await syncBuiltinRoles(store);
    const first = await firstStart(store, opts.org, opts.dataDir, opts.url);
    // For tools that work on the database alone (berth admin recover-owner): where clients reach the API.
    await putSetting(store, PUBLIC_URL_SETTING, opts.url);
    const services: ServiceDeps = {
      store,
      pageTokens,
      counts: new ListTotals(),
      orgCreation: opts.orgCreation ?? 'owners',
      secrets,
      allowInsecureIssuers: opts.allowInsecureIssuers ?? false,
      termsDocuments: opts.termsDocuments ?? [],
      events: opts.events ?? DEFAULT_EVENT_SETTINGS,
      feedRequiresAuth: opts.feedRequiresAuth ?? false,
      blobs: opts.blobs,
      publicUrl: opts.url,
    };
    const externalIssuers = new ExternalIssuers({ allowInsecure: opts.allowInsecureIssuers ?? false });
    const audiences = opts.registryAudience === undefined ? [opts.url] : [opts.url, opts.registryAudience];
    return new Runtime(
      store,
      opts.url,
      opts.logger,
      issuer,
      services,
      new IamAccessDirectory(store),
      new IamExchangeDirectory(store),
      externalIssuers,
      first,
      audiences,
      opts.registryAudience === undefined || opts.registryUrl === undefined ? undefined : { url: opts.registryUrl, audience: opts.registryAudience },
      new RefreshTokens(store, () => issuer.refreshSeal),
      opts.dataDir,
    );
  }

  /** Authentication for a listener that accepts tokens for these audiences. */
  authenticator(audiences: readonly string[]): Authenticator {
    return new Authenticator(this.issuer, this.access, audiences);
  }

  addWorker(worker: BackgroundWorker): void {
    if (this.stopped) throw new Error(`runtime stopped: cannot start ${worker.name}`);
    this.workers.push(worker);
    worker.start();
  }

  /** Stops workers (newest first, each bounded), then closes the store. Listeners must be closed before. */
  async stop(): Promise<void> {
    if (this.stopped) return;
    this.stopped = true;
    for (const w of [...this.workers].reverse()) {
      const bound = new Promise<void>((r) => setTimeout(r, WORKER_STOP_MS).unref());
      await Promise.race([w.stop().catch((err: unknown) => this.logger.error({ err, worker: w.name }, 'worker failed to stop')), bound]);
    }
    await this.store.close();
  }
}

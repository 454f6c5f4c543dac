import type { Command } from 'commander';
import {
  DEFAULT_HISTORY_SEGMENT,
  DEFAULT_PUBLIC_ORG,
  historySegmentProblem,
  publicOrgProblem,
  REGISTRY_REQUEST_TIMEOUT_MS,
  registryPublicUrl,
} from '../oci/registry-config.js';
import type { RegistryServeOptions } from '../runtime/start-server.js';
import { DEFAULT_LIMITS, type ConnectionLimits } from '../http/default-limits.js';
import type { OrgCreationPolicy } from '../runtime/service-deps.js';
import { DEFAULT_EVENT_SETTINGS, type EventSettings } from '../events/event-settings.js';
import { secretsKeyText } from './database-options.js';
import { parseDurationFlag } from './duration-flag.js';
import { loadCertificate, tlsFiles } from '../http/tls-certificate.js';

function parseSwitch(flag: string, value: string): boolean {
  if (value !== 'on' && value !== 'off') throw new Error(`${flag} must be on or off, got ${JSON.stringify(value)}`);
  return value === 'on';
}

function parseListen(value: string, flag = '--listen'): { host: string; port: number } {
  const m = /^(?:\[([^\]]+)\]|([^:]*)):(\d{1,5})$/.exec(value);
  if (!m) throw new Error(`${flag} must be HOST:PORT, got ${JSON.stringify(value)}`);
  const port = Number(m[3]);
  if (port > 65535) throw new Error(`${flag} port ${port} is out of range`);
  return { host: m[1] ?? (m[2] || '127.0.0.1'), port };
}

/** The registry listener's options, or undefined for `--registry-listen off`. */
function parseRegistry(o: {
  registryListen: string;
  registryPublicUrl?: string;
  publicOrg: string;
  historySegment: string;
  registryRequestTimeout: string;
  registryTlsCert?: string;
  registryTlsKey?: string;
}): RegistryServeOptions | undefined {
  const tls = tlsFiles(o.registryTlsCert, o.registryTlsKey, '--registry-tls-cert', '--registry-tls-key');
  if (o.registryListen === 'off') {
    if (o.registryPublicUrl !== undefined) throw new Error('--registry-public-url needs a registry: drop it or --registry-listen off');
    if (tls) throw new Error('--registry-tls-cert needs a registry: drop it or --registry-listen off');
    return undefined;
  }
  const problem = historySegmentProblem(o.historySegment) ?? publicOrgProblem(o.publicOrg);
  if (problem) throw new Error(problem);
  if (o.registryPublicUrl !== undefined) {
    const url = registryPublicUrl(o.registryPublicUrl);
    if (typeof url === 'string') throw new Error(url);
  }
  return {
    ...parseListen(o.registryListen, '--registry-listen'),
    publicUrl: o.registryPublicUrl,
    publicOrg: o.publicOrg,
    historySegment: o.historySegment,
    requestTimeoutMs: parseDuration('--registry-request-timeout', o.registryRequestTimeout),
    tls,
  };
}

const ORG_CREATION: readonly OrgCreationPolicy[] = ['owners', 'anyone', 'nobody'];

function parseOrgCreation(value: string): OrgCreationPolicy {
  if (!(ORG_CREATION as readonly string[]).includes(value))
    throw new Error(`--allow-org-creation must be one of ${ORG_CREATION.join(', ')}, got ${JSON.stringify(value)}`);
  return value as OrgCreationPolicy;
}

/** "30s", "500ms", "2m" or a bare number of seconds, as milliseconds. */
function parseDuration(flag: string, value: string): number {
  const m = /^(\d+(?:\.\d+)?)(ms|s|m)?$/.exec(value.trim());
  const ms = m ? Number(m[1]) * (m[2] === 'ms' ? 1 : m[2] === 'm' ? 60_000 : 1000) : NaN;
  if (!(ms >= 1 && ms <= 3_600_000)) throw new Error(`${flag} must be a duration between 1ms and 1h such as 30s or 500ms, got ${JSON.stringify(value)}`);
  return Math.round(ms);
}

function parseLimits(o: { maxConnections: string; idleTimeout: string; headersTimeout: string; requestTimeout: string }): ConnectionLimits {
  const maxConnections = Number(o.maxConnections);
  if (!Number.isInteger(maxConnections) || maxConnections < 1 || maxConnections > 1_000_000) {
    throw new Error(`--max-connections must be a whole number from 1 to 1000000, got ${JSON.stringify(o.maxConnections)}`);
  }
  const limits = {
    maxConnections,
    idleTimeoutMs: parseDuration('--idle-timeout', o.idleTimeout),
    headersTimeoutMs: parseDuration('--headers-timeout', o.headersTimeout),
    requestTimeoutMs: parseDuration('--request-timeout', o.requestTimeout),
  };
  if (limits.headersTimeoutMs > limits.requestTimeoutMs) throw new Error('--headers-timeout must not be longer than --request-timeout');
  return limits;
}

const seconds = (ms: number) => `${ms / 1000}s`;

// A CloudEvent type is dot-separated lower-case words: reverse-DNS, as dev.berth.
const EVENT_NAMESPACE = /^[a-z][a-z0-9-]{0,62}(\.[a-z][a-z0-9-]{0,62}){0,7}$/;

function parseEvents(o: {
  eventNamespace: string;
  eventAudience: string;
  eventMaxAge: string;
  eventRetention: string;
  auditRetention: string;
  allowInsecureSinks: boolean;
}): EventSettings {
  if (!EVENT_NAMESPACE.test(o.eventNamespace)) {
    throw new Error(`--event-namespace must be dot-separated lower-case words such as dev.berth, got ${JSON.stringify(o.eventNamespace.slice(0, 80))}`);
  }
  const audience = o.eventAudience.trim();
  if (audience === '' || audience.length > 255 || audience.includes('\0')) throw new Error('--event-audience must be 1 to 255 characters');
  return {
    namespace: o.eventNamespace,
    audience,
    allowInsecureSinks: o.allowInsecureSinks,
    maxAgeMs: parseDurationFlag('--event-max-age', o.eventMaxAge, 1000, 30 * 86_400_000),
    retentionMs: parseDurationFlag('--event-retention', o.eventRetention, 60_000, 365 * 86_400_000),
    auditRetentionMs: parseDurationFlag('--audit-retention', o.auditRetention, 1000, 10 * 366 * 86_400_000),
  };
}

export function serveCommand(program: Command): void {
  program
    .command('serve')
    .description('Run the Berth API server (REST/JSON, gRPC, gRPC-Web and Connect on one port) and the OCI registry (a second port)')
    .option('--config <file>', 'YAML (or JSON) file of settings: each key a flag without the leading -- (docs/operations.md); or BERTH_CONFIG')
    .option('--print-config [format]', 'print the effective configuration (yaml or json) with secrets masked, and exit')
    .option('--listen <host:port>', 'address to listen on', '127.0.0.1:8080')
    .option('--tls-cert <file>', 'PEM certificate (chain) of the API listener: it then serves HTTPS, HTTP/2 by ALPN for gRPC; reread on SIGHUP')
    .option('--tls-key <file>', 'PEM private key of --tls-cert')
    .option('--registry-listen <host:port>', 'address of the OCI registry (distribution API, /token, tag history); "off" runs no registry', '127.0.0.1:5000')
    .option(
      '--registry-public-url <url>',
      'URL clients use to reach the registry; its host[:port] is the registry token audience (default: http://<registry-listen>)',
    )
    .option('--public-org <name>', 'organization whose repos anyone may pull at the free-tier tags latest and latest-dev', DEFAULT_PUBLIC_ORG)
    .option(
      '--registry-request-timeout <duration>',
      'longest one registry request may take (a blob upload streams for as long as it needs; a silent one still ends after --idle-timeout)',
      seconds(REGISTRY_REQUEST_TIMEOUT_MS),
    )
    .option('--registry-tls-cert <file>', 'PEM certificate (chain) of the registry listener: it then serves HTTPS; reread on SIGHUP')
    .option('--registry-tls-key <file>', 'PEM private key of --registry-tls-cert')
    .option('--history-segment <name>', 'path segment of the tag history route /v2/<org>/<image>/<segment>/history/<tag>', DEFAULT_HISTORY_SEGMENT)
    .option('--data <dir>', 'data directory (SQLite file, admin credentials)', './data')
    .option(
      '--blob-store <url>',
      'where registry blobs live: "filesystem" (under --data) or s3://BUCKET/PREFIX (credentials from the AWS SDK default chain)',
      'filesystem',
    )
    .option('--s3-endpoint <url>', 'S3-compatible endpoint, http(s)://HOST[:PORT] (default: AWS for --s3-region)')
    .option('--s3-region <region>', 'S3 region (default: AWS_REGION, else us-east-1)')
    .option('--s3-path-style', 'address the bucket in the path (http://host/bucket/key) rather than the host name', false)
    .option('--blob-redirect', 'answer blob pulls with 307 to a presigned URL of the object store, so the bytes bypass Berth', false)
    .option('--database <url>', 'PostgreSQL URL (postgres://user:pass@host/db); default: SQLite in --data')
    .option('--public-url <url>', 'URL clients use to reach this API; token issuer and audience (default: http://<listen>)')
    .option('--org <name>', 'name of the organization created on first start', 'example.com')
    .option(
      '--allow-org-creation <who>',
      'who may create root organizations through the API: owners (of an existing organization), anyone (any root-level identity), nobody',
      'owners',
    )
    .option('--terms-file <file>', 'JSON file of the legal documents groups may accept: {"documents": [{"id": "tos.v1", "label": "…", "url": "https://…"}]}')
    .option(
      '--secrets-key-file <file>',
      'file holding the key (32+ random characters) that encrypts private keys, identity provider client secrets and webhook signing secrets in the database; or BERTH_SECRETS_KEY',
    )
    .option('--log-level <level>', 'fatal, error, warn, info, debug', 'info')
    .option('--log-format <format>', 'json (one JSON object per line on stdout) or text (one line for people)', 'json')
    .option('--access-log <on|off>', 'a log line per request on both listeners (at info level: hidden by --log-level warn)', 'on')
    .option('--metrics <on|off>', 'Prometheus metrics at /metrics on both listeners, unauthenticated (docs/operations.md)', 'on')
    .option(
      '--allow-insecure-issuers',
      'accept OIDC issuers (claimMatch identities, identity providers) on loopback and private addresses, and plain http for loopback hosts (local testing only)',
      false,
    )
    .option('--event-namespace <prefix>', 'prefix of every CloudEvent type delivered to subscriptions', DEFAULT_EVENT_SETTINGS.namespace)
    .option('--event-audience <aud>', 'aud claim of the token that signs each event delivery', DEFAULT_EVENT_SETTINGS.audience)
    .option('--event-max-age <duration>', 'how long a failing delivery is retried before it is marked dead', '24h')
    .option('--event-retention <duration>', 'how long delivered events stay in the delivery log', '7d')
    .option('--audit-retention <duration>', 'how long audit log entries are kept (docs/audit.md)', '90d')
    .option(
      '--allow-insecure-sinks',
      'accept subscription sinks on loopback and private addresses, and plain http for loopback hosts (local testing only)',
      false,
    )
    .option(
      '--feed-requires-auth',
      'ask for a valid Berth token (any identity) on the advisory feed (/advisory/v2/documents, /advisory/v2/metadata), public by default',
      false,
    )
    .option('--max-connections <n>', 'most open connections; further ones are closed at once', String(DEFAULT_LIMITS.maxConnections))
    .option(
      '--idle-timeout <duration>',
      'close a connection (or HTTP/2 stream) that sends and receives nothing this long',
      seconds(DEFAULT_LIMITS.idleTimeoutMs),
    )
    .option('--headers-timeout <duration>', 'close a connection whose request headers (HTTP/2: SETTINGS) take longer', seconds(DEFAULT_LIMITS.headersTimeoutMs))
    .option('--request-timeout <duration>', 'close a connection (HTTP/2: stream) whose whole request takes longer', seconds(DEFAULT_LIMITS.requestTimeoutMs))
    .addHelpText(
      'after',
      `
On an empty database the first start creates the organization and an owner
identity, and writes its keys to <data>/admin-credentials.json (mode 0600).
Then, in this project's directory: npx berth auth login --credentials <data>/admin-credentials.json

Several instances may share one PostgreSQL database; give them the same
--public-url so tokens and page tokens from one are accepted by all (and the
same secrets key, when one is given), and the same --registry-public-url.

Registry tokens: docker login <registry host> -u _token -p "$(npx berth auth token --audience <registry host>)"

Every flag may also come from the environment, BERTH_ and the flag in upper
case with _ for - (--blob-store: BERTH_BLOB_STORE), or from the --config file,
the flag without -- as the key (blob-store: s3://bucket). Flags win over the
environment, the environment over the file, the file over the defaults.`,
    )
    // The environment and the --config file fill what the command line left
    // (config-layers.ts) before the action reads its options.
    .hook('preAction', async (cmd) => {
      // Loaded here, not with the definitions: help starts without the YAML parser.
      const [{ applyConfigLayers }, { printFormat, renderConfig }] = await Promise.all([
        import('../config/config-layers.js'),
        import('../config/print-config.js'),
      ]);
      const origins = applyConfigLayers(cmd, process.env);
      const print = cmd.getOptionValue('printConfig') as true | string | undefined;
      if (print === undefined) return;
      process.stdout.write(renderConfig(cmd, origins, printFormat(print)));
      process.exit(0);
    })
    .action(
      async (o: {
        listen: string;
        tlsCert?: string;
        tlsKey?: string;
        registryTlsCert?: string;
        registryTlsKey?: string;
        registryListen: string;
        registryPublicUrl?: string;
        publicOrg: string;
        historySegment: string;
        registryRequestTimeout: string;
        data: string;
        database?: string;
        publicUrl?: string;
        org: string;
        allowOrgCreation: string;
        logLevel: string;
        logFormat: string;
        accessLog: string;
        metrics: string;
        secretsKeyFile?: string;
        termsFile?: string;
        allowInsecureIssuers: boolean;
        eventNamespace: string;
        eventAudience: string;
        eventMaxAge: string;
        eventRetention: string;
        auditRetention: string;
        allowInsecureSinks: boolean;
        feedRequiresAuth: boolean;
        maxConnections: string;
        idleTimeout: string;
        headersTimeout: string;
        requestTimeout: string;
        blobStore: string;
        s3Endpoint?: string;
        s3Region?: string;
        s3PathStyle: boolean;
        blobRedirect: boolean;
      }) => {
        // The logger, the metrics and the store are loaded here: other commands start without them.
        const [
          { default: pino },
          { parseLogFormat, textLogStream, batchedStdout },
          { enableMetrics },
          { describeDatabase },
          { dataDirWarning },
          { blobStoreSpec },
          { readTermsFile },
          { insecureWarnings },
        ] = await Promise.all([
          import('pino'),
          import('./log-format.js'),
          import('../core/metrics.js'),
          import('../store/store.js'),
          import('../store/private-files.js'),
          import('../registry/blobs/open-blob-store.js'),
          import('../iam/terms/terms-documents.js'),
          import('../config/insecure-warnings.js'),
        ]);
        const orgCreation = parseOrgCreation(o.allowOrgCreation);
        const format = parseLogFormat(o.logFormat);
        const accessLog = parseSwitch('--access-log', o.accessLog);
        const withMetrics = parseSwitch('--metrics', o.metrics);
        const logOptions = { level: o.logLevel, redact: ['req.headers.authorization', '*.token', '*.privateKey'] };
        const logger = pino(logOptions, format === 'text' ? textLogStream() : batchedStdout());
        const { host, port } = parseListen(o.listen);
        const tls = tlsFiles(o.tlsCert, o.tlsKey, '--tls-cert', '--tls-key');
        const registry = parseRegistry(o);
        const exposure = [{ flag: '--listen', host, tls: tls !== undefined }];
        if (registry) exposure.push({ flag: '--registry-listen', host: registry.host, tls: registry.tls !== undefined });
        for (const w of insecureWarnings({ ...o, listeners: exposure })) logger.warn({ flag: w.flag }, w.message);
        const blobStore = blobStoreSpec(o);
        const limits = parseLimits(o);
        const events = parseEvents(o);
        const termsDocuments = o.termsFile === undefined ? [] : readTermsFile(o.termsFile);
        const databaseUrl = o.database ?? process.env.BERTH_DATABASE_URL;
        const secretsKey = secretsKeyText(o.secretsKeyFile);
        // A certificate that cannot be used stops the start before anything is opened.
        for (const files of [tls, registry?.tls]) if (files) loadCertificate(files);
        const warning = dataDirWarning(o.data);
        if (warning) process.stderr.write(`warning: ${warning}\n`);
        // The server stack is loaded only here: every other command starts without it.
        const { startServer } = await import('../runtime/start-server.js');
        if (withMetrics) enableMetrics();
        const server = await startServer({
          host,
          port,
          dataDir: o.data,
          databaseUrl,
          publicUrl: o.publicUrl,
          org: o.org,
          orgCreation,
          logger,
          secretsKey,
          allowInsecureIssuers: o.allowInsecureIssuers,
          limits,
          registry,
          termsDocuments,
          events,
          feedRequiresAuth: o.feedRequiresAuth,
          blobStore,
          accessLog,
          tls,
        });
        logger.info({ url: server.url, registryUrl: server.registryUrl, database: describeDatabase({ databaseUrl, dataDir: o.data }) }, 'berth is serving');
        // One write, so a reader of the first line has the registry's too; on
        // stderr, so stdout holds only the JSON log lines.
        const registryLine = server.registryUrl
          ? `registry at ${server.registryListenUrl} (public URL ${server.registryUrl}; token audience ${new URL(server.registryUrl).host})`
          : 'registry off (--registry-listen off)';
        process.stderr.write(
          `berth is serving at ${server.listenUrl} (public URL ${server.url}; database: ${describeDatabase({ databaseUrl, dataDir: o.data })})\n${registryLine}\n`,
        );
        const fs = server.firstStart;
        if (fs) {
          const moved = fs.movedAside ? `An older file of that name was kept as ${fs.movedAside}.\n` : '';
          process.stderr.write(
            `\nFirst start: created organization ${fs.organization.name} (${fs.organization.uid})\n` +
              `and its owner identity ${fs.identity}. Its keys are in ${fs.credentialsFile} (mode 0600).\n${moved}` +
              // npx finds the project's own bin from its directory; a bare `berth` is on no PATH after `npm start`.
              `Use them with (from this project's directory):\n  npx berth auth login --credentials ${fs.credentialsFile}\n  npx berth iam groups list\n\n`,
          );
        }
        let stopping = false;
        const stop = async (signal: string) => {
          if (stopping) return;
          stopping = true;
          logger.info({ signal }, 'shutting down: finishing in-flight requests');
          await server.close();
          logger.info('stopped');
          process.exit(0);
        };
        process.on('SIGTERM', () => void stop('SIGTERM'));
        process.on('SIGINT', () => void stop('SIGINT'));
        // SIGHUP rereads the certificates; without TLS it keeps its default (the process ends).
        if (tls || registry?.tls) process.on('SIGHUP', () => server.reloadCertificates());
      },
    );
}

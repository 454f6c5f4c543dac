import type { Command } from 'commander';
import pino from 'pino';
import { startServer } from '../server/app.js';
import { describeDatabase } from '../store/store.js';

function parseListen(value: string): { host: string; port: number } {
  const m = /^(?:\[([^\]]+)\]|([^:]*)):(\d{1,5})$/.exec(value);
  if (!m) throw new Error(`--listen must be HOST:PORT, got ${JSON.stringify(value)}`);
  const port = Number(m[3]);
  if (port > 65535) throw new Error(`--listen port ${port} is out of range`);
  return { host: m[1] ?? (m[2] || '127.0.0.1'), port };
}

export function serveCommand(program: Command): void {
  program
    .command('serve')
    .description('Run the Berth API server (REST/JSON, gRPC, gRPC-Web and Connect on one port)')
    .option('--listen <host:port>', 'address to listen on', '127.0.0.1:8080')
    .option('--data <dir>', 'data directory (SQLite file, admin credentials)', './data')
    .option('--database <url>', 'PostgreSQL URL (postgres://user:pass@host/db); default: SQLite in --data')
    .option('--public-url <url>', 'URL clients use to reach this API; token issuer and audience (default: http://<listen>)')
    .option('--org <name>', 'name of the organization created on first start', 'example.com')
    .option('--log-level <level>', 'fatal, error, warn, info, debug', 'info')
    .option('--allow-insecure-issuers', 'let claimMatch issuer patterns match plain-http loopback issuers (local testing only)', false)
    .addHelpText(
      'after',
      `
On an empty database the first start creates the organization and an owner
identity, and writes its keys to <data>/admin-credentials.json (mode 0600).
Then: berth auth login --credentials <data>/admin-credentials.json

Several instances may share one PostgreSQL database; give them the same
--public-url so tokens and page tokens from one are accepted by all.`,
    )
    .action(async (o: { listen: string; data: string; database?: string; publicUrl?: string; org: string; logLevel: string; allowInsecureIssuers: boolean }) => {
      const logger = pino({ level: o.logLevel, redact: ['req.headers.authorization', '*.token', '*.privateKey'] });
      const { host, port } = parseListen(o.listen);
      const databaseUrl = o.database ?? process.env.BERTH_DATABASE_URL;
      const allowInsecureIssuers = o.allowInsecureIssuers;
      const server = await startServer({ host, port, dataDir: o.data, databaseUrl, publicUrl: o.publicUrl, org: o.org, logger, allowInsecureIssuers });
      logger.info({ url: server.url, database: describeDatabase({ databaseUrl, dataDir: o.data }) }, 'berth is serving');
      process.stdout.write(`berth is serving at ${server.listenUrl} (public URL ${server.url}; database: ${describeDatabase({ databaseUrl, dataDir: o.data })})\n`);
      const fs = server.firstStart;
      if (fs) {
        const where = fs.credentialsFile ?? '(not written: a file of that name already exists)';
        process.stderr.write(
          `\nFirst start: created organization ${fs.organization.name} (${fs.organization.uid})\n` +
            `and its owner identity ${fs.identity}. Its keys are in ${where}.\n` +
            `Use them with:\n  berth auth login --credentials ${fs.credentialsFile ?? '<file>'}\n  berth iam groups list\n\n`,
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
    });
}

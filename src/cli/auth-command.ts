// berth auth: tokens (token, login), registry passwords (pull-token) and the
// docker credential helper's configuration (configure-docker).
import type { Command } from 'commander';
import { configureDockerCommand } from './configure-docker-command.js';
import { apiOf, fetchToken, loadCredentials, rememberCredentials } from './credentials.js';
import { pullTokenCommand } from './pull-token-command.js';

export function authCommand(program: Command): void {
  const auth = program.command('auth').description('Get tokens for the Berth API and registry');
  auth
    .command('token')
    .description('Print a one-hour bearer token')
    .option('--credentials <file>', 'credentials file (default: the one saved by `berth auth login`)')
    .option('--api <url>', 'API URL (default: the one in the credentials)')
    .option('--audience <aud>', 'audience of the token: the API URL (default) or the registry host, e.g. 127.0.0.1:5000')
    .action(async (o: { credentials?: string; api?: string; audience?: string }) => {
      const creds = loadCredentials(o.credentials);
      const api = apiOf(creds, o.api);
      process.stdout.write(`${await fetchToken(creds, api, o.audience)}\n`);
    });
  auth
    .command('login')
    .description('Remember a credentials file for later commands and check that it works')
    .requiredOption('--credentials <file>', 'credentials file, e.g. ./data/admin-credentials.json')
    .option('--api <url>', 'API URL (default: the one in the credentials)')
    .action(async (o: { credentials: string; api?: string }) => {
      const creds = loadCredentials(o.credentials);
      const api = (o.api ?? creds.api).replace(/\/$/, '');
      await fetchToken(creds, api);
      const saved = rememberCredentials(o.credentials);
      process.stderr.write(`Logged in to ${api} as ${creds.identity}; credentials saved in ${saved}\n`);
    });
  pullTokenCommand(auth);
  configureDockerCommand(auth);
}

// berth auth: tokens (token, login), registry passwords (pull-token) and the
// docker credential helper's configuration (configure-docker).
import type { Command } from 'commander';
import { ApiClient } from './api-client.js';
import { configureDockerCommand } from './configure-docker-command.js';
import { apiOf, fetchToken, loadCredentials, rememberCredentials } from './credentials.js';
import { pullTokenCommand } from './pull-token-command.js';

interface Session {
  group?: string;
  roleBinding?: { group?: { name?: string }; role?: { name?: string; uid?: string } };
}

/** Accepts an invite code for the identity the token is for (POST /auth/v1/register). */
async function acceptInvite(api: string, token: string, code: string): Promise<string> {
  const s = await new ApiClient(api, token).call<Session>('POST', 'auth/v1/register', { body: { code } });
  const b = s.roleBinding;
  return `Joined ${b?.group?.name ?? 'group'} (${s.group}) as ${b?.role?.name || b?.role?.uid}`;
}

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
    .description('Remember a credentials file for later commands and check that it works; with --invite-code, then join a group')
    .requiredOption('--credentials <file>', 'credentials file, e.g. ./data/admin-credentials.json')
    .option('--api <url>', 'API URL (default: the one in the credentials)')
    .option('--invite-code <code>', 'an invite code (berth iam invites create): join its group with its role')
    .addHelpText('after', '\nExample:\n  berth auth login --credentials ./me.json --invite-code binv1.…')
    .action(async (o: { credentials: string; api?: string; inviteCode?: string }) => {
      const creds = loadCredentials(o.credentials);
      const api = (o.api ?? creds.api).replace(/\/$/, '');
      const token = await fetchToken(creds, api);
      const saved = rememberCredentials(o.credentials);
      process.stderr.write(`Logged in to ${api} as ${creds.identity}; credentials saved in ${saved}\n`);
      if (o.inviteCode !== undefined) process.stderr.write(`${await acceptInvite(api, token, o.inviteCode)}\n`);
    });
  pullTokenCommand(auth);
  configureDockerCommand(auth);
}

// berth auth: signing in (login, logout, status), tokens (token), registry
// passwords (pull-token) and the docker credential helper's configuration
// (configure-docker).
import { spawn } from 'node:child_process';
import { Option, type Command } from 'commander';
import { ApiClient } from './api-client.js';
import { configureDockerCommand } from './configure-docker-command.js';
import {
  apiOf,
  defaultCredentialsFile,
  fetchToken,
  forgetCredentials,
  loadCredentials,
  readCredentials,
  rememberCredentials,
  writeCredentials,
  type Credentials,
} from './credentials.js';
import { reach } from './reach.js';
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

/** The saved credentials, if any can be read (a previous login's API and provider are the defaults of the next). */
function previous(): Credentials | undefined {
  try {
    return readCredentials(defaultCredentialsFile());
  } catch {
    return undefined;
  }
}

/** Best effort: the platform's way of opening a URL; the URL is printed anyway. */
function openBrowser(url: string): void {
  const [cmd, args] = process.platform === 'darwin' ? ['open', [url]] : process.platform === 'win32' ? ['cmd', ['/c', 'start', '', url]] : ['xdg-open', [url]];
  try {
    const child = spawn(cmd, args, { stdio: 'ignore', detached: true });
    child.on('error', () => {});
    child.unref();
  } catch {
    // no opener: the printed URL is enough
  }
}

interface LoginOptions {
  credentials?: string;
  api?: string;
  identityProvider?: string;
  headless?: boolean;
  browser: boolean;
  inviteCode?: string;
}

async function loginWithProvider(o: LoginOptions): Promise<{ api: string; token: string }> {
  const before = previous();
  const api = (o.api ?? (process.env.BERTH_API || undefined) ?? before?.api)?.replace(/\/+$/, '');
  if (!api) throw new Error('no API URL: pass --api <url> (or set BERTH_API)');
  const provider = o.identityProvider ?? (before?.kind === 'session' ? before.identityProvider : undefined);
  if (!provider) throw new Error('pass --identity-provider <uid> (berth iam identity-providers list), or --credentials <file>');
  // The login flow (with node:http for its callback) is loaded here: other commands start without it.
  const { browserLogin } = await import('./browser-login.js');
  const answer = await browserLogin(api, provider, {
    headless: o.headless === true,
    say: (line) => process.stderr.write(`${line}\n`),
    open: o.browser ? openBrowser : undefined,
    input: process.stdin,
  });
  const file = defaultCredentialsFile();
  writeCredentials(file, {
    kind: 'session',
    api,
    identity: answer.identity,
    name: answer.name,
    identityProvider: provider,
    refreshToken: answer.refreshToken,
    token: answer.token,
    tokenExpiry: answer.expiry,
  });
  const how = answer.registered ? 'registered and logged in' : 'logged in';
  process.stderr.write(`${how} to ${api} as ${answer.name} (${answer.identity}); session saved in ${file}\n`);
  return { api, token: answer.token };
}

interface Binding {
  uid?: string;
  group?: { uid?: string; name?: string };
  role?: { uid?: string; name?: string };
}

async function status(o: { credentials?: string; api?: string; output: string }): Promise<void> {
  const creds = loadCredentials(o.credentials);
  const api = apiOf(creds, o.api);
  const token = await fetchToken(creds, api);
  const client = new ApiClient(api, token);
  const { decodeJwt } = await import('jose/jwt/decode');
  const exp = decodeJwt(token).exp;
  let name = creds.kind === 'session' ? creds.name : '';
  try {
    name = (await client.call<{ name?: string }>('GET', `iam/v2/identities/${creds.identity}`)).name || name;
  } catch {
    // the server is older than the rule that a caller may read its own identity, or unreachable: the name from sign in stands
  }
  const bindings: Binding[] = [];
  let pageToken = '';
  for (let page = 0; page < 20; page++) {
    const r = await client.call<{ roleBindings?: Binding[]; nextPageToken?: string }>('GET', 'iam/v2/roleBindings', {
      query: { identity: creds.identity, pageSize: 100, pageToken },
    });
    bindings.push(...(r.roleBindings ?? []));
    pageToken = r.nextPageToken ?? '';
    if (pageToken === '') break;
  }
  const out = {
    api,
    identity: creds.identity,
    name,
    identityProvider: creds.kind === 'session' ? creds.identityProvider : undefined,
    tokenExpiry: exp === undefined ? undefined : new Date(exp * 1000).toISOString(),
    bindings: bindings.map((b) => ({ group: b.group?.uid ?? '', groupName: b.group?.name ?? '', role: b.role?.uid ?? '', roleName: b.role?.name ?? '' })),
  };
  if (o.output === 'json') {
    process.stdout.write(`${JSON.stringify(out, null, 2)}\n`);
    return;
  }
  const lines = [
    `API:       ${out.api}`,
    `Identity:  ${out.identity}`,
    `Name:      ${out.name}`,
    ...(out.identityProvider ? [`Provider:  ${out.identityProvider}`] : []),
    `Expires:   ${out.tokenExpiry ?? 'unknown'}`,
    `Bindings:  ${out.bindings.length === 0 ? 'none you can see' : ''}`,
    ...out.bindings.map((b) => `  ${b.roleName || b.role} on ${b.groupName || b.group} (${b.group})`),
  ];
  process.stdout.write(`${lines.join('\n')}\n`);
}

async function logout(): Promise<void> {
  const file = defaultCredentialsFile();
  let creds: Credentials | undefined;
  try {
    creds = readCredentials(file);
  } catch {
    creds = undefined;
  }
  if (creds?.kind === 'session') {
    // Revoke server-side first; an unreachable server still lets the user forget the session locally.
    try {
      await reach(creds.api, new URL('/sts/revoke_refresh_token', creds.api), { method: 'POST', headers: { authorization: `Bearer ${creds.refreshToken}` } });
    } catch (err) {
      process.stderr.write(`could not revoke the session at ${creds.api}: ${(err as Error).message}\n`);
    }
  }
  process.stderr.write(forgetCredentials(file) ? `Logged out: ${file} deleted\n` : 'Not logged in\n');
}

export function authCommand(program: Command): void {
  const auth = program.command('auth').description('Sign in, and get tokens for the Berth API and registry');
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
    .description(
      'Sign in through an identity provider (browser, PKCE), or remember a credentials file; the first sign in registers you. With --invite-code, then join a group',
    )
    .option('--identity-provider <uid>', 'the identity provider to sign in with (default: the one of the last sign in)')
    .option('--headless', 'print the sign-in URL and read the URL the browser was sent back to (or the code) from stdin')
    .option('--no-browser', 'do not try to open a browser; only print the URL')
    .option('--credentials <file>', 'instead: a credentials file, e.g. ./data/admin-credentials.json')
    .option('--api <url>', 'API URL (default: the one in the credentials or of the last sign in, or $BERTH_API)')
    .option('--invite-code <code>', 'an invite code (berth iam invites create): join its group with its role')
    .addHelpText(
      'after',
      '\nExamples:\n  berth auth login --api https://berth.example.com --identity-provider <uid>\n  berth auth login --headless\n  berth auth login --credentials ./me.json --invite-code binv1.…',
    )
    .action(async (o: LoginOptions) => {
      let api: string;
      let token: string;
      if (o.credentials !== undefined) {
        const creds = loadCredentials(o.credentials);
        api = (o.api ?? creds.api).replace(/\/$/, '');
        token = await fetchToken(creds, api);
        const saved = rememberCredentials(o.credentials);
        process.stderr.write(`Logged in to ${api} as ${creds.identity}; credentials saved in ${saved}\n`);
      } else {
        ({ api, token } = await loginWithProvider(o));
      }
      if (o.inviteCode !== undefined) process.stderr.write(`${await acceptInvite(api, token, o.inviteCode)}\n`);
    });
  auth.command('logout').description('Forget the saved credentials; a sign-in session is revoked at the server too').action(logout);
  auth
    .command('status')
    .description('Who you are: identity, name, role bindings and when the token expires')
    .option('--credentials <file>', 'credentials file (default: the one saved by `berth auth login`)')
    .option('--api <url>', 'API URL (default: the one in the credentials)')
    .addOption(new Option('-o, --output <format>', 'output format').choices(['table', 'json']).default('table'))
    .action(status);
  pullTokenCommand(auth);
  configureDockerCommand(auth);
}

// berth auth pull-token create: a registry password that lasts (default 30
// days, at most 365). It is an identity in the organization whose static keys
// name the pull-token issuer, bound to the built-in registry.pull role there;
// the CLI signs ONE long-lived JWT with a fresh private key and forgets the key,
// so the printed password is the only copy. Username = the identity uid,
// password = that JWT: what `docker login`, `podman login` and `skopeo login`
// send to the registry's /token. Deleting the identity revokes it at once.
import { randomBytes } from 'node:crypto';
import { Option, type Command } from 'commander';
import { PULL_TOKEN_ISSUER } from '../auth/pull-token-issuer.js';
import { connect, parentOrOrg, uidPath, type ApiClient } from './api-client.js';
import { registryHostOf } from './api-discovery.js';

const HOUR_MS = 3_600_000;
/** The identity's longest key lifetime (static_keys.expiration_time). */
const MAX_TTL_MS = 8760 * HOUR_MS;
const MIN_TTL_MS = 60_000;
const UNIT_MS: Record<string, number> = { s: 1000, m: 60_000, h: HOUR_MS, d: 24 * HOUR_MS };

/** "720h", "30d", "1h30m" as milliseconds, between a minute and 8760h. */
export function parseTtl(value: string): number {
  const text = value.trim();
  const parts = [...text.matchAll(/(\d+(?:\.\d+)?)([smhd])/g)];
  const covered = parts.map((p) => p[0]).join('');
  const ms = parts.reduce((sum, p) => sum + Number(p[1]) * UNIT_MS[p[2]], 0);
  if (text === '' || covered !== text || !(ms >= MIN_TTL_MS && ms <= MAX_TTL_MS)) {
    throw new Error(`--ttl must be a duration from 1m to 8760h such as 720h, 30d or 12h30m, got ${JSON.stringify(value)}`);
  }
  return ms;
}

interface CreateOptions {
  credentials?: string;
  api?: string;
  parent?: string;
  ttl: string;
  name?: string;
  description?: string;
  registry?: string;
  output: 'text' | 'json';
}

export interface PullToken {
  registry: string;
  username: string;
  password: string;
  expirationTime: string;
  name: string;
}

/** Creates the identity and its binding (or neither), then signs the password. */
async function createPullToken(client: ApiClient, org: string, registry: string, ttlMs: number, name: string, description: string): Promise<PullToken> {
  // Loaded here, not with the command's definition: every other command starts without them.
  const [{ generateKeyPair }, { exportJWK }, { SignJWT }, { builtinRoleByName }] = await Promise.all([
    import('jose/key/generate/keypair'),
    import('jose/key/export'),
    import('jose/jwt/sign'),
    import('../iam/roles/builtin-roles.js'),
  ]);
  const expSeconds = Math.floor((Date.now() + ttlMs) / 1000);
  const expirationTime = new Date(expSeconds * 1000).toISOString();
  const { privateKey, publicKey } = await generateKeyPair('ES256', { extractable: true });
  const kid = randomBytes(8).toString('hex');
  const subject = randomBytes(16).toString('hex');
  const jwks = JSON.stringify({ keys: [{ ...(await exportJWK(publicKey)), kid, alg: 'ES256', use: 'sig' }] });
  // The built-in role by its fixed uid: a custom role of the same name cannot make it ambiguous.
  const roleUid = builtinRoleByName('registry.pull')!.uid;
  const identity = await client.call<{ uid: string }>('POST', `iam/v2/identities/${uidPath(org)}`, {
    body: {
      name,
      description: description || `pull token for ${registry}, expires ${expirationTime}`,
      staticKeys: { issuer: PULL_TOKEN_ISSUER, subject, issuerKeys: jwks, expirationTime, audiences: [registry] },
    },
  });
  try {
    await client.call('POST', `iam/v2/roleBindings/${uidPath(org)}`, { body: { identityUid: identity.uid, roleUid } });
  } catch (err) {
    // No half-made token: an identity without its binding would only be clutter.
    await client.call('DELETE', `iam/v2/identities/${uidPath(identity.uid)}`).catch(() => undefined);
    throw err;
  }
  const password = await new SignJWT({})
    .setProtectedHeader({ alg: 'ES256', kid, typ: 'JWT' })
    .setIssuer(PULL_TOKEN_ISSUER)
    .setSubject(subject)
    .setAudience(registry)
    .setIssuedAt()
    .setExpirationTime(expSeconds)
    .sign(privateKey);
  return { registry, username: identity.uid, password, expirationTime, name };
}

function printText(t: PullToken): void {
  process.stdout.write(
    `Pull token for ${t.registry} (identity ${JSON.stringify(t.name)}), valid until ${t.expirationTime}\n` +
      `  username: ${t.username}\n` +
      `  password: ${t.password}\n\n` +
      'The password is shown only now. Log in with:\n' +
      `  echo '${t.password}' | docker login ${t.registry} -u '${t.username}' --password-stdin\n` +
      'Revoke it with:\n' +
      `  berth iam identities delete ${t.username}\n`,
  );
}

export function pullTokenCommand(auth: Command): void {
  const pullToken = auth.command('pull-token').description('Registry passwords for docker login, podman login and skopeo login');
  pullToken
    .command('create')
    .description('Create a pull token: an identity with the registry.pull role in the organization, and a password for it')
    .option('--credentials <file>', 'credentials file (default: the one saved by `berth auth login`)')
    .option('--api <url>', 'API URL (default: $BERTH_API or the one in the credentials)')
    .option('--parent <uid>', 'organization the token may pull from (default: the one in the credentials)')
    .option('--ttl <duration>', 'how long the token lasts: 1m to 8760h', '720h')
    .option('--name <name>', 'name of the identity (default: pull-token-<random>)')
    .option('--description <text>', 'description of the identity')
    .option('--registry <host>', 'registry host the token is for (default: the one the API announces)')
    .addOption(new Option('-o, --output <format>', 'output format').choices(['text', 'json']).default('text'))
    .addHelpText(
      'after',
      `
Examples:
  berth auth pull-token create
  berth auth pull-token create --ttl 24h --name ci-pull -o json
  berth auth pull-token create --parent <org uid> --ttl 8760h`,
    )
    .action(async (o: CreateOptions) => {
      const ttlMs = parseTtl(o.ttl);
      const name = o.name ?? `pull-token-${randomBytes(4).toString('hex')}`;
      const conn = await connect({ credentials: o.credentials, api: o.api, output: 'json' });
      const org = parentOrOrg(conn, o.parent);
      if (org.includes('/')) throw new Error('--parent must be an organization (a root group uid): repositories live in organizations');
      const registry = await registryHostOf(conn.client.base, o.registry);
      const token = await createPullToken(conn.client, org, registry, ttlMs, name, o.description ?? '');
      if (o.output === 'json') process.stdout.write(`${JSON.stringify(token, null, 2)}\n`);
      else printText(token);
    });
}

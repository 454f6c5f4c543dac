// Credentials files and the token they buy. Two kinds:
//  - static keys (as written on first start): sign a short assertion with the
//    private key, exchange it at /sts/exchange;
//  - a sign-in session (`berth auth login --identity-provider`): a refresh
//    token, traded at /sts/exchange_refresh_token. Refresh tokens rotate, so
//    the file is rewritten with the next one each time; the last token is
//    kept with its expiry and reused while it has time left, which spares a
//    rotation (and a race between two commands rotating the same one).
import { createPrivateKey, type JsonWebKey, randomBytes, randomUUID } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, unlinkSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import type { JWK } from 'jose';
import { apiDiscovery, type ApiDiscovery } from './api-discovery.js';
import { reach } from './reach.js';

export interface StaticCredentials {
  kind?: undefined;
  api: string;
  identity: string;
  issuer: string;
  subject: string;
  privateKey: JWK;
  /** The file read (not stored). */
  file?: string;
}

export interface SessionCredentials {
  kind: 'session';
  api: string;
  identity: string;
  /** The name the provider gave the user at sign in. */
  name: string;
  identityProvider: string;
  refreshToken: string;
  /** The last API token and its expiry (RFC 3339). */
  token?: string;
  tokenExpiry?: string;
  file?: string;
}

export type Credentials = StaticCredentials | SessionCredentials;

/** A cached token is reused while it has at least this long to live. */
const TOKEN_MARGIN_MS = 5 * 60_000;

export function configDir(): string {
  return process.env.BERTH_CONFIG_DIR ?? join(process.env.XDG_CONFIG_HOME ?? join(homedir(), '.config'), 'berth');
}

export function readCredentials(file: string): Credentials {
  let parsed: Record<string, unknown>;
  try {
    parsed = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
  } catch (err) {
    throw new Error(`cannot read credentials ${file}: ${(err as Error).message}`);
  }
  const needed =
    parsed.kind === 'session'
      ? (['api', 'identity', 'identityProvider', 'refreshToken'] as const)
      : (['api', 'identity', 'issuer', 'subject', 'privateKey'] as const);
  for (const k of needed) {
    if (!parsed[k]) throw new Error(`credentials ${file} lack "${k}"`);
  }
  if (parsed.kind !== 'session') checkPrivateKey(file, parsed.privateKey);
  return { ...parsed, file } as unknown as Credentials;
}

/** A damaged key is reported with its file, not as a bare "Invalid keyData"; node:crypto catches most damage when the file is read, jose the rest when it signs. */
function checkPrivateKey(file: string, jwk: unknown): void {
  try {
    createPrivateKey({ key: jwk as JsonWebKey, format: 'jwk' });
  } catch (err) {
    throw damagedKey(file, err);
  }
}

function damagedKey(file: string | undefined, err: unknown): Error {
  return new Error(
    `credentials ${file ?? '(unnamed)'}: "privateKey" is not a usable private key (${(err as Error).message}); the file is damaged: use an intact copy, or make new keys with \`berth admin recover-owner\``,
  );
}

/** The credentials file commands read when not told otherwise. */
export function defaultCredentialsFile(): string {
  return join(configDir(), 'credentials.json');
}

/** Writes `creds` to `file` (0600, in a 0700 directory) by rename, so a crash leaves the old file or the new one. */
export function writeCredentials(file: string, creds: Credentials): void {
  const { file: _file, ...stored } = creds;
  mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
  const tmp = `${file}.${randomBytes(6).toString('hex')}.tmp`;
  writeFileSync(tmp, `${JSON.stringify(stored, null, 2)}\n`, { mode: 0o600 });
  renameSync(tmp, file);
}

/** Deletes the default credentials file; false when there was none. */
export function forgetCredentials(file = defaultCredentialsFile()): boolean {
  try {
    unlinkSync(file);
    return true;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return false;
    throw err;
  }
}

/** Remembers a credentials file for later commands (`berth auth login`). */
export function rememberCredentials(file: string): string {
  const creds = readCredentials(file);
  const target = defaultCredentialsFile();
  writeCredentials(target, Object.assign({}, creds, { source: resolve(file) }));
  return target;
}

export function loadCredentials(file?: string): Credentials {
  const path = file ?? process.env.BERTH_CREDENTIALS ?? defaultCredentialsFile();
  try {
    return readCredentials(path);
  } catch (err) {
    if (!file && !process.env.BERTH_CREDENTIALS) {
      throw new Error('not logged in: run `berth auth login --identity-provider <uid>` or `berth auth login --credentials <file>`, or pass --credentials');
    }
    throw err;
  }
}

/** The API URL: --api, else $BERTH_API, else the one in the credentials; no trailing slash. */
export function apiOf(creds: Credentials, flag?: string): string {
  return (flag ?? (process.env.BERTH_API || undefined) ?? creds.api).replace(/\/+$/, '');
}

/** A one-hour Berth token for `audience` (default: the API), through /sts/exchange; `known` spares a second discovery fetch. */
export async function fetchToken(creds: Credentials, api: string, audience?: string, known?: ApiDiscovery): Promise<string> {
  if (creds.kind === 'session') return sessionToken(creds, api, audience);
  const issuer = (known ?? (await apiDiscovery(api))).issuer;
  // Loaded when a key signs, from jose's narrow entry points: help and session commands start without it.
  const [{ importJWK }, { SignJWT }] = await Promise.all([import('jose/key/import'), import('jose/jwt/sign')]);
  const key = await importJWK(creds.privateKey, creds.privateKey.alg ?? 'ES256').catch((err: unknown) => {
    throw damagedKey(creds.file, err);
  });
  const now = Math.floor(Date.now() / 1000);
  const assertion = await new SignJWT({})
    .setProtectedHeader({ alg: creds.privateKey.alg ?? 'ES256', kid: creds.privateKey.kid })
    .setIssuer(creds.issuer)
    .setSubject(creds.subject)
    .setAudience(issuer)
    .setIssuedAt(now)
    .setExpirationTime(now + 300)
    .setJti(randomUUID()) // assertions are single-use; a unique id keeps two signed in one second apart
    .sign(key);
  const url = new URL('/sts/exchange', api);
  url.searchParams.set('identity', creds.identity);
  url.searchParams.set('aud', audience ?? issuer);
  const res = await reach(api, url, { method: 'POST', headers: { authorization: `Bearer ${assertion}` } });
  const body = (await res.json().catch(() => ({}))) as { token?: string; message?: string };
  if (!res.ok || !body.token) throw new Error(`token exchange at ${api} failed (${res.status}): ${body.message ?? 'no token'}`);
  return body.token;
}

/** A token of a sign-in session: the cached one while it lasts, else one traded for the refresh token (the file then holds the next). */
async function sessionToken(creds: SessionCredentials, api: string, audience?: string): Promise<string> {
  const forApi = audience === undefined || audience === api || audience === creds.api;
  // The cached token is the API's; another audience (the registry host) is asked for on the refresh.
  if (forApi && creds.token && creds.tokenExpiry && Date.parse(creds.tokenExpiry) - Date.now() > TOKEN_MARGIN_MS) return creds.token;
  const url = new URL('/sts/exchange_refresh_token', api);
  if (!forApi) url.searchParams.set('aud', audience);
  const res = await reach(api, url, { method: 'POST', headers: { authorization: `Bearer ${creds.refreshToken}` } });
  const body = (await res.json().catch(() => ({}))) as { token?: { token?: string; expiry?: string }; refreshToken?: { token?: string }; message?: string };
  if (!res.ok || !body.token?.token || !body.refreshToken?.token) {
    throw new Error(
      `your sign-in session at ${api} has ended (${body.message ?? res.status}): run \`berth auth login --identity-provider ${creds.identityProvider}\` again`,
    );
  }
  const next: SessionCredentials = forApi
    ? { ...creds, refreshToken: body.refreshToken.token, token: body.token.token, tokenExpiry: body.token.expiry }
    : { ...creds, refreshToken: body.refreshToken.token };
  if (creds.file) writeCredentials(creds.file, next);
  return body.token.token;
}

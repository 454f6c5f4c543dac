// Credentials files (as written on first start) and the token they buy:
// sign a short assertion with the private key, exchange it at /sts/exchange.
import { randomUUID } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { importJWK, SignJWT, type JWK } from 'jose';
import { apiDiscovery, type ApiDiscovery } from './api-discovery.js';
import { reach } from './reach.js';

export interface Credentials {
  api: string;
  identity: string;
  issuer: string;
  subject: string;
  privateKey: JWK;
}

export function configDir(): string {
  return process.env.BERTH_CONFIG_DIR ?? join(process.env.XDG_CONFIG_HOME ?? join(homedir(), '.config'), 'berth');
}

export function readCredentials(file: string): Credentials {
  let parsed: Partial<Credentials>;
  try {
    parsed = JSON.parse(readFileSync(file, 'utf8')) as Partial<Credentials>;
  } catch (err) {
    throw new Error(`cannot read credentials ${file}: ${(err as Error).message}`);
  }
  for (const k of ['api', 'identity', 'issuer', 'subject', 'privateKey'] as const) {
    if (!parsed[k]) throw new Error(`credentials ${file} lack "${k}"`);
  }
  return parsed as Credentials;
}

/** Remembers a credentials file for later commands (`berth auth login`). */
export function rememberCredentials(file: string): string {
  const creds = readCredentials(file);
  const target = join(configDir(), 'credentials.json');
  mkdirSync(dirname(target), { recursive: true, mode: 0o700 });
  writeFileSync(target, `${JSON.stringify({ ...creds, source: resolve(file) }, null, 2)}\n`, { mode: 0o600 });
  return target;
}

export function loadCredentials(file?: string): Credentials {
  const path = file ?? process.env.BERTH_CREDENTIALS ?? join(configDir(), 'credentials.json');
  try {
    return readCredentials(path);
  } catch (err) {
    if (!file && !process.env.BERTH_CREDENTIALS) {
      throw new Error('not logged in: run `berth auth login --credentials <file>` or pass --credentials');
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
  const issuer = (known ?? (await apiDiscovery(api))).issuer;
  const key = await importJWK(creds.privateKey, creds.privateKey.alg ?? 'ES256');
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

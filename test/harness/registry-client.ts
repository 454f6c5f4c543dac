// Helpers for talking to Berth's registry listener the way docker, containerd
// and curl do: the token service (GET with Basic, POST with a form), Bearer
// requests, and identities whose tokens carry the registry audience.
import { spawnSync } from 'node:child_process';
import { exportJWK, generateKeyPair, importJWK, SignJWT, type JWK } from 'jose';
import type { Berth } from './berth-process.js';
import { CLI } from './berth-process.js';
import { rest, type RestResult } from './api-client.js';

/** host[:port] of the registry's public URL: the registry token audience. */
export function registryHost(berth: Berth): string {
  if (!berth.registryPublicUrl) throw new Error('this Berth runs no registry');
  return new URL(berth.registryPublicUrl).host;
}

export function basic(user: string, password: string): string {
  return `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;
}

/** GET on the registry with an optional Authorization header value. */
export function registryGet(berth: Berth, path: string, authorization?: string, method = 'GET'): Promise<RestResult> {
  return rest(berth.registryUrl as string, method, path, { headers: authorization ? { authorization } : {} });
}

/** GET /token with these scopes (each its own parameter). */
export function tokenGet(berth: Berth, scopes: readonly string[], authorization?: string, extra = ''): Promise<RestResult> {
  const q = [...scopes.map((s) => `scope=${encodeURIComponent(s)}`), `service=${encodeURIComponent(registryHost(berth))}`].join('&');
  return registryGet(berth, `/token?${q}${extra}`, authorization);
}

/** POST /token as containerd sends it (OAuth2 password grant, scopes space-separated). */
export function tokenPost(berth: Berth, form: Record<string, string>): Promise<RestResult> {
  return rest(berth.registryUrl as string, 'POST', '/token', {
    rawBody: new URLSearchParams(form).toString(),
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
  });
}

/** The payload of a JWT (no verification: the server's answer is under test). */
// biome-ignore lint/suspicious/noExplicitAny: claims are asserted on as loose JSON
export function claimsOf(token: string): any {
  return JSON.parse(Buffer.from(token.split('.')[1], 'base64url').toString('utf8'));
}

/** `berth auth token --audience <aud>` with the owner's credentials, as a user would run it. */
export function cliToken(berth: Berth, audience: string): { status: number | null; token: string; stderr: string } {
  const args = [CLI, 'auth', 'token', '--credentials', berth.credentialsFile, '--api', berth.url, '--audience', audience];
  const r = spawnSync(process.execPath, args, { encoding: 'utf8' });
  return { status: r.status, token: r.stdout.trim(), stderr: r.stderr };
}

export interface TestIdentity {
  uid: string;
  /** A fresh Berth token for this identity with the given audience (through /sts/exchange). */
  tokenFor(audience: string): Promise<string>;
}

/** A static-keys identity under `parent`, with `roleName` bound at `bindAt` (none when undefined). */
export async function identityWithKeys(
  berth: Berth,
  ownerTok: string,
  parent: string,
  roleName?: string,
  bindAt = parent,
): Promise<TestIdentity & { bindingUid?: string }> {
  const { privateKey, publicKey } = await generateKeyPair('ES256', { extractable: true });
  const pub = { ...(await exportJWK(publicKey)), kid: 'k1', alg: 'ES256' };
  const priv: JWK = { ...(await exportJWK(privateKey)), kid: 'k1', alg: 'ES256' };
  const subject = `reg-${Math.random().toString(16).slice(2)}`;
  const created = await rest(berth.url, 'POST', `/iam/v2/identities/${parent}`, {
    token: ownerTok,
    body: { name: subject, staticKeys: { issuer: 'https://ci.example', subject, issuerKeys: JSON.stringify({ keys: [pub] }) } },
  });
  if (created.status !== 200) throw new Error(`identity create failed: ${created.text}`);
  const uid = created.json.uid as string;
  let bindingUid: string | undefined;
  if (roleName) {
    const roles = await rest(berth.url, 'GET', `/iam/v2/roles?name=${encodeURIComponent(roleName)}`, { token: ownerTok });
    const bound = await rest(berth.url, 'POST', `/iam/v2/roleBindings/${bindAt}`, {
      token: ownerTok,
      body: { identityUid: uid, roleUid: roles.json.roles[0].uid },
    });
    if (bound.status !== 200) throw new Error(`binding failed: ${bound.text}`);
    bindingUid = bound.json.uid as string;
  }
  const tokenFor = async (audience: string) => {
    const key = await importJWK(priv, 'ES256');
    const now = Math.floor(Date.now() / 1000);
    const assertion = await new SignJWT({})
      .setProtectedHeader({ alg: 'ES256', kid: 'k1' })
      .setIssuer('https://ci.example')
      .setSubject(subject)
      .setAudience(berth.url)
      .setIssuedAt(now)
      .setExpirationTime(now + 300)
      .setJti(Math.random().toString(16).slice(2))
      .sign(key);
    const r = await rest(berth.url, 'POST', `/sts/exchange?identity=${encodeURIComponent(uid)}&aud=${encodeURIComponent(audience)}`, {
      headers: { authorization: `Bearer ${assertion}` },
    });
    if (r.status !== 200) throw new Error(`exchange failed: ${r.text}`);
    return r.json.token as string;
  };
  return { uid, bindingUid, tokenFor };
}

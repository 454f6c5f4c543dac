// Small helpers for calling Berth over REST the way curl would, and over gRPC
// with a real Connect-ES gRPC client on HTTP/2.
import { spawnSync } from 'node:child_process';
import type { DescService } from '@bufbuild/protobuf';
import { type Code, ConnectError, createClient, type Client } from '@connectrpc/connect';
import { createGrpcTransport } from '@connectrpc/connect-node';
import { importJWK, SignJWT, type JWK } from 'jose';
import { readFileSync } from 'node:fs';
import { CLI } from './berth-process.js';

export interface RestResult {
  status: number;
  text: string;
  // biome-ignore lint/suspicious/noExplicitAny: response bodies are asserted on as loose JSON
  json: any;
  headers: Headers;
}

export async function rest(
  base: string,
  method: string,
  path: string,
  opts: { token?: string; body?: unknown; rawBody?: string; headers?: Record<string, string> } = {},
): Promise<RestResult> {
  const headers: Record<string, string> = { ...(opts.headers ?? {}) };
  if (opts.token) headers.authorization = `Bearer ${opts.token}`;
  let body: string | undefined;
  if (opts.rawBody !== undefined) body = opts.rawBody;
  else if (opts.body !== undefined) body = JSON.stringify(opts.body);
  if (body !== undefined && !headers['content-type']) headers['content-type'] = 'application/json';
  const res = await fetch(`${base}${path}`, { method, headers, body });
  const text = await res.text();
  let json: unknown;
  try {
    json = text === '' ? undefined : JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: res.status, text, json, headers: res.headers };
}

/** A REST caller bound to one server and token. */
export function restAs(base: string, token?: string) {
  return (method: string, path: string, body?: unknown) => rest(base, method, path, { token, body });
}

export function grpcClient<S extends DescService>(service: S, baseUrl: string, token?: string): Client<S> {
  const transport = createGrpcTransport({
    baseUrl,
    interceptors: token
      ? [
          (next) => async (req) => {
            req.header.set('authorization', `Bearer ${token}`);
            return next(req);
          },
        ]
      : [],
  });
  return createClient(service, transport);
}

/** A token for the owner identity, minted the way the CLI does (`berth auth token`). */
export function ownerToken(credentialsFile: string, api?: string): string {
  const args = [CLI, 'auth', 'token', '--credentials', credentialsFile];
  if (api) args.push('--api', api);
  const r = spawnSync(process.execPath, args, { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`berth auth token failed: ${r.stderr}`);
  return r.stdout.trim();
}

/**
 * Creates a static-keys identity under `parent` (as the owner), binds `roleName`
 * to it on `bindAt`, and returns a token for it. For access-control tests.
 */
export async function identityWithRole(
  base: string,
  ownerTok: string,
  parent: string,
  roleName: string | undefined,
  bindAt: string,
  /** The server's public URL when it is not `base` (--public-url). */
  audience = base,
): Promise<{ uid: string; token: string }> {
  const { generateKeyPair, exportJWK } = await import('jose');
  const { privateKey, publicKey } = await generateKeyPair('ES256', { extractable: true });
  const pub = { ...(await exportJWK(publicKey)), kid: 'k1', alg: 'ES256' };
  const subject = `svc-${Math.random().toString(16).slice(2)}`;
  const created = await rest(base, 'POST', `/iam/v2/identities/${parent}`, {
    token: ownerTok,
    body: { name: subject, staticKeys: { issuer: 'https://ci.example', subject, issuerKeys: JSON.stringify({ keys: [pub] }) } },
  });
  if (created.status !== 200) throw new Error(`identity create failed: ${created.text}`);
  const uid = created.json.uid as string;
  if (roleName) {
    const roles = await rest(base, 'GET', `/iam/v2/roles?name=${encodeURIComponent(roleName)}`, { token: ownerTok });
    const roleUid = roles.json.roles[0].uid as string;
    const bound = await rest(base, 'POST', `/iam/v2/roleBindings/${bindAt}`, { token: ownerTok, body: { identityUid: uid, roleUid } });
    if (bound.status !== 200) throw new Error(`binding failed: ${bound.text}`);
  }
  const token = await exchangeStatic(base, uid, 'https://ci.example', subject, { ...(await exportJWK(privateKey)), kid: 'k1', alg: 'ES256' }, audience);
  return { uid, token };
}

export async function exchangeStatic(base: string, identity: string, issuer: string, subject: string, privateJwk: JWK, audience = base): Promise<string> {
  return (await exchangeStaticTokens(base, identity, issuer, subject, privateJwk, audience)).token;
}

/** The exchange of exchangeStatic, with the refresh token it also answers. */
export async function exchangeStaticTokens(
  base: string,
  identity: string,
  issuer: string,
  subject: string,
  privateJwk: JWK,
  audience = base,
): Promise<{ token: string; refreshToken: string }> {
  const key = await importJWK(privateJwk, 'ES256');
  const now = Math.floor(Date.now() / 1000);
  const assertion = await new SignJWT({})
    .setProtectedHeader({ alg: 'ES256', kid: privateJwk.kid })
    .setIssuer(issuer)
    .setSubject(subject)
    .setAudience(audience)
    .setIssuedAt(now)
    .setExpirationTime(now + 300)
    .sign(key);
  const r = await rest(base, 'POST', `/sts/exchange?identity=${encodeURIComponent(identity)}&aud=${encodeURIComponent(audience)}`, {
    headers: { authorization: `Bearer ${assertion}` },
  });
  if (r.status !== 200) throw new Error(`exchange failed: ${r.text}`);
  return { token: r.json.token as string, refreshToken: r.json.refreshToken as string };
}

export function readJson(file: string) {
  return JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
}

/** The gRPC code a call ends with ('OK' when it succeeds). */
export async function grpcCode(call: Promise<unknown>): Promise<Code | 'OK'> {
  try {
    await call;
    return 'OK';
  } catch (err) {
    return ConnectError.from(err).code;
  }
}

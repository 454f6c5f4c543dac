// A Docker token server for the reference registry (distribution 2.8 with
// `auth: token`), so the conformance client's challenge → token → Bearer flow is
// exercised against a real registry before it meets Berth's. It grants every
// requested action to one username/password pair (HTTP Basic) and refuses
// anything else with 401; tokens are ES256 JWTs whose x5c header carries a
// self-signed certificate that the registry trusts through its rootcertbundle.
import { execFileSync } from 'node:child_process';
import { randomUUID, X509Certificate } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { importPKCS8, SignJWT } from 'jose';

export interface TokenServer {
  realm: string;
  service: string;
  issuer: string;
  /** The registry's `auth:` config section. */
  authYaml: string;
  /** Every `scope` value asked for, in order, and how many token requests were refused. */
  scopes: string[];
  refused: number;
  close(): Promise<void>;
}

export function opensslInstalled(): boolean {
  try {
    execFileSync('openssl', ['version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

export async function startTokenServer(username: string, password: string): Promise<TokenServer> {
  const dir = mkdtempSync(join(tmpdir(), 'berth-token-server-'));
  const keyFile = join(dir, 'key.pem');
  const certFile = join(dir, 'cert.pem');
  execFileSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'ec',
      '-pkeyopt',
      'ec_paramgen_curve:prime256v1',
      '-nodes',
      '-keyout',
      keyFile,
      '-out',
      certFile,
      '-days',
      '1',
      '-subj',
      '/CN=conformance-token-issuer',
    ],
    { stdio: 'ignore' },
  );
  const key = await importPKCS8(readFileSync(keyFile, 'utf8'), 'ES256');
  const x5c = [new X509Certificate(readFileSync(certFile)).raw.toString('base64')];
  const service = 'conformance-registry';
  const issuer = 'conformance-token-issuer';
  const expected = `Basic ${Buffer.from(`${username}:${password}`).toString('base64')}`;
  const state = { scopes: [] as string[], refused: 0 };

  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://token.invalid');
    if (url.pathname !== '/token' || req.headers.authorization !== expected) {
      state.refused++;
      res.writeHead(401, { 'content-type': 'application/json' }).end('{"details":"bad credentials"}');
      return;
    }
    const scopes = url.searchParams.getAll('scope');
    state.scopes.push(...scopes);
    // "repository:a/b:pull,push repository:c:pull" → one access entry per scope
    const access = scopes
      .flatMap((s) => s.split(' '))
      .filter((s) => s !== '')
      .map((s) => {
        const [type, ...rest] = s.split(':');
        const actions = rest.pop() ?? '';
        return { type, name: rest.join(':'), actions: actions.split(',') };
      });
    const now = Math.floor(Date.now() / 1000);
    new SignJWT({ access })
      .setProtectedHeader({ alg: 'ES256', typ: 'JWT', x5c })
      .setIssuer(issuer)
      .setSubject(username)
      .setAudience(url.searchParams.get('service') ?? '')
      .setIssuedAt(now)
      .setNotBefore(now - 10)
      .setExpirationTime(now + 300)
      .setJti(randomUUID())
      .sign(key)
      .then((token) => res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ token, expires_in: 300 })))
      .catch(() => res.writeHead(500).end());
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const realm = `http://127.0.0.1:${(server.address() as AddressInfo).port}/token`;
  return {
    realm,
    service,
    issuer,
    authYaml: ['auth:', '  token:', `    realm: ${realm}`, `    service: ${service}`, `    issuer: ${issuer}`, `    rootcertbundle: ${certFile}`].join('\n'),
    get scopes() {
      return state.scopes;
    },
    get refused() {
      return state.refused;
    },
    async close() {
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

// `berth auth login --identity-provider`: the OpenID Connect authorization-code
// flow with PKCE (RFC 7636) for a native client (RFC 8252). Berth tells the
// CLI the provider's issuer, client id and scopes (/sts/login_settings); the
// CLI finds the authorization endpoint through the issuer's discovery document
// (which must name that issuer), sends the user's browser there with a fresh
// state, nonce and code challenge, and takes the code back on a loopback
// listener (127.0.0.1, a free port), refusing a callback whose state is not
// its own. --headless prints the URL instead and reads the URL the browser
// was sent back to (or the bare code) from stdin. The code, the verifier, the
// redirect URI and the nonce then go to Berth (/sts/login), which redeems the
// code with the client secret only it holds and checks the ID token.
import { createHash, randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { createInterface } from 'node:readline';
import { reach } from './reach.js';

const CALLBACK_PATH = '/callback';
const WAIT_MS = 5 * 60_000;
const MAX_LINE = 8192;

export interface LoginSettings {
  identityProvider: string;
  issuer: string;
  clientId: string;
  scopes: string[];
}

export interface LoginAnswer {
  token: string;
  refreshToken: string;
  expiry: string;
  identity: string;
  name: string;
  registered: boolean;
}

export interface BrowserLoginOptions {
  headless: boolean;
  /** Where the URL and prompts go (stderr). */
  say: (line: string) => void;
  /** Opens the URL in a browser; the URL is printed either way. */
  open?: (url: string) => void;
  input: NodeJS.ReadableStream;
}

async function getJson<T>(api: string, url: URL, what: string): Promise<T> {
  const res = await reach(api, url, { headers: { accept: 'application/json' } });
  const body = (await res.json().catch(() => undefined)) as (T & { message?: string }) | undefined;
  if (!res.ok || body === undefined) throw new Error(`${what} failed (${res.status}): ${body?.message ?? 'no JSON answer'}`);
  return body;
}

/** The provider's authorization endpoint, from the discovery document of its issuer. */
async function authorizationEndpoint(issuer: string): Promise<URL> {
  const url = new URL(`${issuer.replace(/\/$/, '')}/.well-known/openid-configuration`);
  let doc: { issuer?: unknown; authorization_endpoint?: unknown };
  try {
    const res = await fetch(url, { signal: AbortSignal.timeout(10_000), headers: { accept: 'application/json' } });
    if (!res.ok) throw new Error(`HTTP ${res.status}`);
    doc = (await res.json()) as typeof doc;
  } catch (err) {
    throw new Error(`cannot read the identity provider's discovery document at ${url} (${(err as Error).message})`);
  }
  if (doc.issuer !== issuer)
    throw new Error(`the identity provider's discovery document names issuer ${JSON.stringify(doc.issuer)}, not ${issuer}: refusing to sign in`);
  if (typeof doc.authorization_endpoint !== 'string') throw new Error("the identity provider's discovery document has no authorization_endpoint");
  const ep = new URL(doc.authorization_endpoint);
  if (ep.protocol !== 'https:' && !(ep.protocol === 'http:' && new URL(issuer).protocol === 'http:')) {
    throw new Error('the authorization endpoint of an https issuer must be https');
  }
  return ep;
}

const random = (bytes: number) => randomBytes(bytes).toString('base64url');

interface Flow {
  state: string;
  nonce: string;
  verifier: string;
}

/** The code from a callback URL's query, after checking its state; throws on an error answer or a foreign state. */
function codeOfCallback(query: URLSearchParams, flow: Flow): string {
  const error = query.get('error');
  if (error !== null) throw new Error(`the identity provider refused the sign in: ${error.slice(0, 100)}`);
  if (query.get('state') !== flow.state) throw new Error('the callback carries another state than this login sent: refusing it');
  const code = query.get('code');
  if (!code) throw new Error('the callback carries no code');
  return code;
}

/** Waits for the browser on 127.0.0.1:<free port>; the redirect URI and the code. */
async function loopbackCallback(authorize: (redirectUri: string) => void, flow: Flow): Promise<{ code: string; redirectUri: string }> {
  let settle!: { resolve: (code: string) => void; reject: (err: Error) => void };
  const done = new Promise<string>((resolve, reject) => {
    settle = { resolve, reject };
  });
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    if (req.method !== 'GET' || url.pathname !== CALLBACK_PATH) {
      res.writeHead(404).end();
      return;
    }
    try {
      const code = codeOfCallback(url.searchParams, flow);
      res.writeHead(200, { 'content-type': 'text/plain; charset=utf-8' }).end('Signed in to Berth. You may close this window.\n');
      settle.resolve(code);
    } catch (err) {
      res.writeHead(400, { 'content-type': 'text/plain; charset=utf-8' }).end(`Sign in failed: ${(err as Error).message}\n`);
      settle.reject(err as Error);
    }
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const redirectUri = `http://127.0.0.1:${(server.address() as AddressInfo).port}${CALLBACK_PATH}`;
  const timer = setTimeout(() => settle.reject(new Error(`no sign in within ${WAIT_MS / 60_000} minutes`)), WAIT_MS);
  try {
    authorize(redirectUri);
    return { code: await done, redirectUri };
  } finally {
    clearTimeout(timer);
    server.closeAllConnections();
    server.close();
  }
}

/** One line of stdin, at most MAX_LINE characters. */
function readLine(input: NodeJS.ReadableStream): Promise<string> {
  return new Promise((resolve, reject) => {
    const rl = createInterface({ input });
    let got = false;
    rl.once('line', (line) => {
      got = true;
      rl.close();
      // An open terminal would keep the process alive after the line.
      if (input === process.stdin) process.stdin.destroy();
      if (line.length > MAX_LINE) reject(new Error('the pasted line is too long'));
      else resolve(line.trim());
    });
    rl.once('close', () => {
      if (!got) reject(new Error('no code was given on stdin'));
    });
  });
}

/** --headless: the code from the URL the browser was sent back to, or the bare code. */
async function pastedCallback(authorize: (redirectUri: string) => void, flow: Flow, opts: BrowserLoginOptions): Promise<{ code: string; redirectUri: string }> {
  const redirectUri = `http://127.0.0.1${CALLBACK_PATH}`;
  authorize(redirectUri);
  opts.say('After signing in, your browser is sent to a 127.0.0.1 address that does not load: paste that whole URL (or its code) here:');
  const line = await readLine(opts.input);
  if (line === '') throw new Error('no code was given on stdin');
  // A bare code cannot carry the state; PKCE still binds it to this login's verifier.
  return { code: /^https?:\/\//.test(line) ? codeOfCallback(new URL(line).searchParams, flow) : line, redirectUri };
}

export async function browserLogin(api: string, providerUid: string, opts: BrowserLoginOptions): Promise<LoginAnswer> {
  const settingsUrl = new URL('/sts/login_settings', api);
  settingsUrl.searchParams.set('identityProvider', providerUid);
  const settings = await getJson<LoginSettings>(api, settingsUrl, 'reading the identity provider');
  const endpoint = await authorizationEndpoint(settings.issuer);
  const flow: Flow = { state: random(16), nonce: random(16), verifier: random(32) };
  const authorize = (redirectUri: string) => {
    const url = new URL(endpoint);
    url.searchParams.set('response_type', 'code');
    url.searchParams.set('client_id', settings.clientId);
    url.searchParams.set('redirect_uri', redirectUri);
    url.searchParams.set('scope', settings.scopes.join(' '));
    url.searchParams.set('state', flow.state);
    url.searchParams.set('nonce', flow.nonce);
    url.searchParams.set('code_challenge', createHash('sha256').update(flow.verifier).digest('base64url'));
    url.searchParams.set('code_challenge_method', 'S256');
    opts.say(`Open this URL in a browser to sign in:\n${url}`);
    if (!opts.headless) opts.open?.(url.toString());
  };
  const { code, redirectUri } = opts.headless ? await pastedCallback(authorize, flow, opts) : await loopbackCallback(authorize, flow);
  const res = await reach(api, new URL('/sts/login', api), {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json' },
    body: JSON.stringify({ identityProvider: providerUid, code, codeVerifier: flow.verifier, redirectUri, nonce: flow.nonce }),
  });
  const body = (await res.json().catch(() => ({}))) as Partial<LoginAnswer> & { message?: string };
  if (!res.ok || !body.token || !body.refreshToken || !body.identity)
    throw new Error(`sign in at ${api} failed (${res.status}): ${body.message ?? 'no token'}`);
  return body as LoginAnswer;
}

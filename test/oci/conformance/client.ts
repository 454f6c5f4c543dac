// The conformance suite's HTTP client: a port of what the Go suite gets from
// github.com/bloodorangeio/reggie v0.6.1 on go-resty v2.7.0 and net/http, on
// node:http(s) so every header on the wire is the one the Go client would send:
// - paths with <name>, <reference>, <digest>, <session_id> filled in; a request
//   whose URL still holds a placeholder (or `///`) is refused, as reggie does;
// - SetQueryParam values are appended sorted and QueryEscape'd after any query
//   already in the path (resty), e.g. an upload Location's `?_state=…`;
// - no Accept header unless a spec sets one (reggie strips resty's default), no
//   Accept-Encoding (compression off), User-Agent distribution-spec-conformance-tests;
// - GET and HEAD carry no body even when a spec sets one (resty drops it), and
//   Content-Length is the real body length whatever header a spec sets (net/http
//   ignores that header); POST, PUT and PATCH without a body send Content-Length: 0;
// - redirects are followed (at most 20) as net/http does;
// - on 401 with WWW-Authenticate: Bearer, GET realm?scope=…&service=… with Basic
//   credentials (scope from the challenge, or the configured authScope), then the
//   same request again with `Authorization: Bearer <token|access_token>`; on Basic,
//   the request again with Basic credentials. Every request first goes without
//   credentials, as reggie's do.
// Deviations from reggie, on purpose: tokens are cached per (realm, service, scope)
// and fetched again when a cached one is refused; without a username the token
// request is anonymous (reggie sends `Basic Og==`).
import http from 'node:http';
import https from 'node:https';

const USER_AGENT = 'distribution-spec-conformance-tests';
const REQUEST_TIMEOUT_MS = 30_000;
const MAX_BODY_BYTES = 16 << 20;
const MAX_REDIRECTS = 20;

export type Method = 'GET' | 'HEAD' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export interface ClientConfig {
  /** Base URL, e.g. http://127.0.0.1:5000 (no trailing slash needed). */
  address: string;
  /** The default `<name>` (OCI_NAMESPACE). */
  defaultName: string;
  username?: string;
  password?: string;
  /** Overrides the challenge's scope (OCI_AUTH_SCOPE). */
  authScope?: string;
}

export interface RequestOptions {
  name?: string;
  reference?: string;
  digest?: string;
  sessionId?: string;
}

export class Request {
  readonly headers = new Map<string, string>();
  readonly query: Array<[string, string]> = [];
  body: Buffer | undefined;
  constructor(
    readonly method: Method,
    readonly url: string,
  ) {}
  setHeader(name: string, value: string): this {
    this.headers.set(name.toLowerCase(), value);
    return this;
  }
  setQueryParam(name: string, value: string): this {
    const at = this.query.findIndex(([k]) => k === name);
    if (at >= 0) this.query.splice(at, 1);
    this.query.push([name, value]);
    return this;
  }
  setBody(body: Buffer): this {
    this.body = body;
    return this;
  }
  /** The URL on the wire: the path's own query, then the query params sorted by key (url.Values.Encode). */
  fullUrl(): string {
    if (this.query.length === 0) return this.url;
    const encoded = [...this.query]
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([k, v]) => `${queryEscape(k)}=${queryEscape(v)}`)
      .join('&');
    const u = new URL(this.url);
    return `${this.url}${u.search === '' ? '?' : '&'}${encoded}`;
  }
}

export class Response {
  constructor(
    readonly method: Method,
    readonly url: string,
    readonly statusCode: number,
    readonly headers: http.IncomingHttpHeaders,
    readonly distinctHeaders: NodeJS.Dict<string[]>,
    readonly body: Buffer,
  ) {}
  /** http.Header.Get: the first value, "" when absent. */
  header(name: string): string {
    return this.distinctHeaders[name.toLowerCase()]?.[0] ?? '';
  }
  text(): string {
    return this.body.toString('utf8');
  }
  /** reggie GetRelativeLocation: the Location's (decoded) path plus its raw query. */
  relativeLocation(): string {
    const loc = this.header('Location');
    let u: URL;
    try {
      u = new URL(loc, 'http://relative.invalid');
    } catch {
      return '';
    }
    let path = u.pathname;
    try {
      path = decodeURIComponent(path);
    } catch {
      // Go's url.Parse would have refused it: reggie returns ""
      return '';
    }
    if (loc === '') path = '';
    return u.search.length > 1 ? `${path}?${u.search.slice(1)}` : path;
  }
  /** reggie GetAbsoluteLocation: the Location header as sent. */
  absoluteLocation(): string {
    return this.header('Location');
  }
  /** reggie Errors: the OCI error body's entries, or an Error when it is not one. */
  errors(): Array<{ code: string; message?: string; detail?: unknown }> {
    const parsed = JSON.parse(this.text()) as { errors?: Array<{ code: string; message?: string; detail?: unknown }> };
    if (!parsed || !Array.isArray(parsed.errors) || parsed.errors.length === 0) throw new Error('body was valid json but could not be parsed');
    return parsed.errors;
  }
  /** One line for assertion messages: what was asked and what came back. */
  describe(): string {
    const body = this.body.length > 600 ? `${this.body.subarray(0, 600).toString('utf8')}…` : this.text();
    return `${this.method} ${this.url} -> ${this.statusCode} ${JSON.stringify(body)}`;
  }
}

/** Go's url.QueryEscape: everything but A-Z a-z 0-9 - _ . ~ is %XX, space is '+'. */
export function queryEscape(s: string): string {
  let out = '';
  for (const byte of Buffer.from(s, 'utf8')) {
    const c = String.fromCharCode(byte);
    if (/[A-Za-z0-9\-_.~]/.test(c)) out += c;
    else if (c === ' ') out += '+';
    else out += `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  return out;
}

interface Challenge {
  scheme: string;
  params: Map<string, string>;
}

/** reggie's reading of WWW-Authenticate, regexes included (the scheme is the last "bearer" or "basic" anywhere in it). */
function parseChallenge(raw: string): Challenge {
  const scheme = /^.*(bearer|basic).*$/i.exec(raw)?.[1]?.toLowerCase() ?? '';
  const params = new Map<string, string>();
  // [a-zA-z] (sic) is reggie's own class, kept as is
  for (const m of raw.matchAll(/([a-zA-z]+)="(.+?)"/g)) params.set(m[1].toLowerCase(), m[2]);
  return { scheme, params };
}

export class RegistryClient {
  private readonly agent: http.Agent;
  private readonly tokens = new Map<string, string>();

  constructor(readonly config: ClientConfig) {
    const secure = config.address.startsWith('https:');
    // reggie: InsecureSkipTLSVerify(true)
    this.agent = secure ? new https.Agent({ keepAlive: true, rejectUnauthorized: false }) : new http.Agent({ keepAlive: true });
  }

  newRequest(method: Method, path: string, opts: RequestOptions = {}): Request {
    const namespace = opts.name || this.config.defaultName;
    const replacements: Array<[string, string | undefined]> = [
      ['<name>', namespace],
      ['<reference>', opts.reference],
      ['<digest>', opts.digest],
      ['<session_id>', opts.sessionId],
    ];
    for (const [k, v] of replacements) if (v) path = path.split(k).join(v);
    path = path.replace(/^\//, '');
    return new Request(method, `${this.config.address.replace(/\/$/, '')}/${path}`).setHeader('User-Agent', USER_AGENT);
  }

  /** reggie Client.Do: send; on 401 follow the challenge once. */
  async do(req: Request): Promise<Response> {
    if (/<name>|<reference>|<digest>|<session_id>|\/\/{2,}/.test(req.url)) throw new Error('request is invalid');
    const url = req.fullUrl();
    const first = await this.send(req, url);
    if (first.statusCode !== 401) return first;
    const raw = first.header('WWW-Authenticate');
    if (raw === '') return first;
    const challenge = parseChallenge(raw);
    if (challenge.scheme === 'basic') return this.send(req, url, this.basic());
    if (challenge.scheme !== 'bearer') throw new Error('something went wrong with authorization');
    const key = ['realm', 'service', 'scope'].map((p) => challenge.params.get(p) ?? '').join('\n');
    const cached = this.tokens.get(key);
    if (cached !== undefined) {
      const retried = await this.send(req, url, `Bearer ${cached}`);
      if (retried.statusCode !== 401) return retried;
      this.tokens.delete(key);
    }
    const token = await this.fetchToken(challenge);
    this.tokens.set(key, token);
    return this.send(req, url, `Bearer ${token}`);
  }

  close(): void {
    this.agent.destroy();
  }

  private basic(): string | undefined {
    if (this.config.username === undefined) return undefined;
    return `Basic ${Buffer.from(`${this.config.username}:${this.config.password ?? ''}`).toString('base64')}`;
  }

  private async fetchToken(challenge: Challenge): Promise<string> {
    const realm = challenge.params.get('realm');
    if (!realm) throw new Error('bearer challenge without a realm');
    const tokenReq = new Request('GET', realm).setHeader('User-Agent', USER_AGENT);
    tokenReq.setQueryParam('service', challenge.params.get('service') ?? '');
    const scope = this.config.authScope || challenge.params.get('scope');
    if (scope) tokenReq.setQueryParam('scope', scope);
    const res = await this.send(tokenReq, tokenReq.fullUrl(), this.basic());
    let info: { token?: string; access_token?: string };
    try {
      info = JSON.parse(res.text()) as typeof info;
    } catch {
      throw new Error(`token endpoint did not answer JSON: ${res.describe()}`);
    }
    const token = info.token || info.access_token;
    if (!token) throw new Error(`token endpoint answered no token: ${res.describe()}`);
    return token;
  }

  /** One exchange, following redirects the way Go's http.Client does. */
  private async send(req: Request, url: string, authorization?: string): Promise<Response> {
    let method = req.method;
    let body = method === 'GET' || method === 'HEAD' ? undefined : req.body;
    let target = url;
    let auth = authorization;
    for (let hop = 0; ; hop++) {
      const res = await this.exchange(method, target, req.headers, body, auth);
      const location = res.header('Location');
      if (![301, 302, 303, 307, 308].includes(res.statusCode) || location === '') return res;
      if (hop >= MAX_REDIRECTS) throw new Error(`stopped after ${MAX_REDIRECTS} redirects`);
      const next = new URL(location, target);
      if (next.host !== new URL(target).host) auth = undefined; // net/http drops Authorization on another host
      if (res.statusCode !== 307 && res.statusCode !== 308 && method !== 'HEAD') {
        method = 'GET';
        body = undefined;
      }
      target = next.toString();
    }
  }

  private exchange(method: Method, url: string, headers: Map<string, string>, body: Buffer | undefined, authorization?: string): Promise<Response> {
    const u = new URL(url);
    const out: http.OutgoingHttpHeaders = {};
    for (const [k, v] of headers) if (k !== 'content-length') out[k] = v;
    if (body !== undefined) out['content-length'] = String(body.length);
    else if (method === 'POST' || method === 'PUT' || method === 'PATCH') out['content-length'] = '0';
    if (authorization) out.authorization = authorization;
    const lib = u.protocol === 'https:' ? https : http;
    return new Promise((resolve, reject) => {
      const r = lib.request(u, { method, headers: out, agent: this.agent, timeout: REQUEST_TIMEOUT_MS }, (res) => {
        const chunks: Buffer[] = [];
        let size = 0;
        res.on('data', (c: Buffer) => {
          size += c.length;
          if (size > MAX_BODY_BYTES) {
            res.destroy(new Error(`response body of ${method} ${url} exceeds ${MAX_BODY_BYTES} bytes`));
            return;
          }
          chunks.push(c);
        });
        res.on('error', reject);
        res.on('end', () => resolve(new Response(method, url, res.statusCode ?? 0, res.headers, res.headersDistinct, Buffer.concat(chunks))));
      });
      r.on('timeout', () => r.destroy(new Error(`${method} ${url} timed out after ${REQUEST_TIMEOUT_MS} ms`)));
      r.on('error', reject);
      r.end(body);
    });
  }
}

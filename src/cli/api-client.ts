// The CLI's REST client: one base URL and one bearer token from the saved
// credentials; JSON in and out; an API error becomes an Error carrying the
// message from the JSON error body (never the token).
import type { Command } from 'commander';
import { apiOf, fetchToken, loadCredentials, type Credentials } from './credentials.js';
import { addOutputOption, type OutputFormat } from './output.js';
import { reach } from './reach.js';

export interface ApiOptions {
  credentials?: string;
  api?: string;
  output: OutputFormat;
}

/** Query parameters; an array repeats its key (artifactNames=a&artifactNames=b), as the API reads repeated filters. */
export type Query = Record<string, string | number | readonly string[] | undefined>;

/** An error answer of the API: its HTTP status and the message of its body. */
export class ApiCallError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

export class ApiClient {
  constructor(
    readonly base: string,
    private readonly token: string,
  ) {}

  async call<T = Record<string, unknown>>(method: string, path: string, opts: { query?: Query; body?: unknown } = {}): Promise<T> {
    const url = new URL(path, `${this.base}/`);
    for (const [k, v] of Object.entries(opts.query ?? {})) {
      if (Array.isArray(v)) for (const x of v) url.searchParams.append(k, x);
      else if (v !== undefined && v !== '') url.searchParams.set(k, String(v));
    }
    const headers: Record<string, string> = { authorization: `Bearer ${this.token}`, accept: 'application/json' };
    if (opts.body !== undefined) headers['content-type'] = 'application/json';
    const res = await reach(this.base, url, { method, headers, body: opts.body === undefined ? undefined : JSON.stringify(opts.body) });
    const text = await res.text();
    let json: unknown;
    try {
      json = text === '' ? {} : JSON.parse(text);
    } catch {
      json = undefined;
    }
    if (!res.ok) throw new ApiCallError(res.status, errorMessage(res.status, json, text));
    if (json === undefined) throw new Error(`${method} ${url.pathname}: the API answered with something other than JSON`);
    return json as T;
  }
}

/** The message of a {code, message, details} error body, with field violations appended. */
function errorMessage(status: number, json: unknown, text: string): string {
  const body = (json ?? {}) as { message?: string; details?: { '@type'?: string; fieldViolations?: { field: string; description: string }[] }[] };
  let msg = typeof body.message === 'string' && body.message !== '' ? body.message : `HTTP ${status}${text ? `: ${text.slice(0, 200)}` : ''}`;
  for (const d of body.details ?? []) {
    for (const v of d.fieldViolations ?? []) {
      if (!msg.includes(v.description)) msg += `\n  ${v.field}: ${v.description}`;
    }
  }
  return msg;
}

export interface Connection {
  client: ApiClient;
  /** The organization uid from the credentials file, when it has one. */
  orgUid?: string;
  /** Its name, for messages. */
  orgName?: string;
}

export async function connect(o: ApiOptions): Promise<Connection> {
  const creds = loadCredentials(o.credentials) as Credentials & { organization?: { uid?: string; name?: string } };
  const base = apiOf(creds, o.api);
  const token = await fetchToken(creds, base);
  return { client: new ApiClient(base, token), orgUid: creds.organization?.uid, orgName: creds.organization?.name };
}

/** The --parent value, or the organization from the credentials. */
export function parentOrOrg(conn: Connection, parent: string | undefined): string {
  const p = parent ?? conn.orgUid;
  if (!p) throw new Error('no --parent given and the credentials file names no organization');
  return p;
}

/** Adds a leaf command with the options every API command takes. */
export function apiCommand(parent: Command, nameAndArgs: string, description: string): Command {
  const cmd = parent
    .command(nameAndArgs)
    .description(description)
    .option('--credentials <file>', 'credentials file (default: the one saved by `berth auth login`)')
    .option('--api <url>', 'API URL (default: $BERTH_API or the one in the credentials)');
  return addOutputOption(cmd);
}

/** "/" in uids is part of the path template ({uid=**}); each segment is escaped on its own. */
export function uidPath(uid: string): string {
  return uid.split('/').map(encodeURIComponent).join('/');
}

/** The PATCH body and updateMask for the fields given on the command line. */
export function patchOf<V>(fields: Record<string, V | undefined>): { body: Record<string, V>; updateMask: string } {
  const body: Record<string, V> = {};
  for (const [k, v] of Object.entries(fields)) if (v !== undefined) body[k] = v;
  const keys = Object.keys(body);
  if (keys.length === 0)
    throw new Error(
      `nothing to update: give at least one of ${Object.keys(fields)
        .map((k) => `--${k}`)
        .join(', ')}`,
    );
  return { body, updateMask: keys.join(',') };
}

// The console's only way to the server: the public REST API on this origin,
// with the session token as a Bearer credential. A failure carries the API's
// own message (AIP-193 body), which the pages show as is.
import { currentToken, setToken } from './session.js';

export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

export type Query = Record<string, string | number | boolean | undefined>;

export function withQuery(path: string, query: Query = {}): string {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(query)) if (v !== undefined && v !== '') q.set(k, String(v));
  const s = q.toString();
  return s ? `${path}?${s}` : path;
}

export async function api<T = Record<string, unknown>>(method: string, path: string, body?: unknown): Promise<T> {
  const headers: Record<string, string> = { accept: 'application/json' };
  const token = currentToken();
  if (token) headers.authorization = `Bearer ${token}`;
  if (body !== undefined) headers['content-type'] = 'application/json';
  let res: Response;
  try {
    res = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body), credentials: 'omit' });
  } catch {
    throw new ApiError(0, 'The server cannot be reached.');
  }
  const text = await res.text();
  let json: unknown;
  try {
    json = text ? JSON.parse(text) : {};
  } catch {
    json = undefined;
  }
  // An expired or revoked token ends the session: back to the sign-in page.
  if (res.status === 401 && token && token === currentToken()) setToken('');
  if (!res.ok) {
    const message = (json as { message?: unknown } | undefined)?.message;
    throw new ApiError(res.status, typeof message === 'string' && message ? message : `HTTP ${res.status}`);
  }
  return json as T;
}

/** A path segment that may hold slashes (uids) stays as is; anything else is encoded. */
export function uidPath(uid: string): string {
  return uid.split('/').map(encodeURIComponent).join('/');
}

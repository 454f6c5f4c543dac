// Outbound GETs to URLs a presented token leads to (OIDC discovery, JWKS),
// and the sign-in flow's POST to a provider's token endpoint: made only where
// the outbound policy allows (src/outbound/: checked on every address the
// connection goes to), bounded in time and size, and redirected only within
// the same origin (the POST not at all), so a token can neither tie Berth up
// with slow or large answers nor steer it to another host.
import type { IncomingMessage } from 'node:http';
import { outboundRequest } from '../outbound/outbound-request.js';
import type { OutboundPolicy } from '../outbound/outbound-policy.js';

export interface FetchBounds {
  timeoutMs: number;
  maxBytes: number;
}

const MAX_REDIRECTS = 3;

interface Answer {
  status: number;
  location: string | undefined;
  body: Uint8Array;
}

async function readBounded(res: IncomingMessage, maxBytes: number): Promise<Uint8Array> {
  const declared = Number(res.headers['content-length'] ?? '0');
  if (declared > maxBytes) {
    res.destroy();
    throw new Error(`answer of ${declared} bytes exceeds ${maxBytes}`);
  }
  const chunks: Buffer[] = [];
  let total = 0;
  for await (const chunk of res as AsyncIterable<Buffer>) {
    total += chunk.byteLength;
    if (total > maxBytes) throw new Error(`answer exceeds ${maxBytes} bytes`); // leaving the loop destroys the stream
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}

/** One request and its bounded answer (a redirect's body is not read). */
function send(
  url: URL,
  method: 'GET' | 'POST',
  headers: Record<string, string>,
  body: string | undefined,
  policy: OutboundPolicy,
  maxBytes: number,
  signal: AbortSignal,
): Promise<Answer> {
  return new Promise<Answer>((resolve, reject) => {
    const req = outboundRequest(url, { method, headers, policy, what: 'the URL', signal });
    req.on('error', reject);
    req.on('response', (res) => {
      const status = res.statusCode ?? 0;
      const location = typeof res.headers.location === 'string' ? res.headers.location : undefined;
      if (status >= 300 && status < 400 && location !== undefined) {
        res.destroy();
        resolve({ status, location, body: new Uint8Array() });
        return;
      }
      readBounded(res, maxBytes).then((b) => resolve({ status, location, body: b }), reject);
    });
    req.end(body);
  });
}

/** The body of a 200 answer to GET `url`; throws on any other outcome. */
export async function boundedGet(url: URL, bounds: FetchBounds, policy: OutboundPolicy, headers: Record<string, string> = {}): Promise<Uint8Array> {
  const signal = AbortSignal.timeout(bounds.timeoutMs); // covers redirects and the body
  let current = url;
  for (let hop = 0; ; hop++) {
    const res = await send(current, 'GET', headers, undefined, policy, bounds.maxBytes, signal);
    if (res.status >= 300 && res.status < 400 && res.location !== undefined) {
      const next = new URL(res.location, current);
      if (next.origin !== url.origin || hop >= MAX_REDIRECTS) throw new Error(`redirect away from ${url.origin} refused`);
      current = next;
      continue;
    }
    if (res.status !== 200) throw new Error(`GET ${current.origin} answered ${res.status}`);
    return res.body;
  }
}

/** A fetch() stand-in for libraries that fetch on their own (jose's remote JWKS). */
export function boundedFetch(bounds: FetchBounds, policy: OutboundPolicy): (input: string | URL, init?: RequestInit) => Promise<Response> {
  return async (input) => {
    const body = await boundedGet(new URL(String(input)), bounds, policy, { accept: 'application/json' });
    return new Response(body, { status: 200, headers: { 'content-type': 'application/json' } });
  };
}

/** Status and body of a POST of `form` to `url` (no redirects followed); throws on timeout or an oversize answer. */
export async function boundedPostForm(
  url: URL,
  form: URLSearchParams,
  bounds: FetchBounds,
  policy: OutboundPolicy,
): Promise<{ status: number; body: Uint8Array }> {
  const signal = AbortSignal.timeout(bounds.timeoutMs);
  const headers = { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' };
  const res = await send(url, 'POST', headers, form.toString(), policy, bounds.maxBytes, signal);
  return { status: res.status, body: res.body };
}

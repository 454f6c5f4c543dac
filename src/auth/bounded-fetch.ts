// Outbound GETs to URLs a presented token leads to (OIDC discovery, JWKS),
// and the sign-in flow's POST to a provider's token endpoint: bounded in time
// and size, and redirected only within the same origin (the POST not at all),
// so a token can neither tie Berth up with slow or large answers nor steer it
// to another host.
export interface FetchBounds {
  timeoutMs: number;
  maxBytes: number;
}

const MAX_REDIRECTS = 3;

async function readBounded(res: Response, maxBytes: number): Promise<Uint8Array> {
  const declared = Number(res.headers.get('content-length') ?? '0');
  if (declared > maxBytes) {
    await res.body?.cancel();
    throw new Error(`answer of ${declared} bytes exceeds ${maxBytes}`);
  }
  const chunks: Uint8Array[] = [];
  let total = 0;
  if (res.body) {
    for await (const chunk of res.body) {
      total += chunk.byteLength;
      if (total > maxBytes) throw new Error(`answer exceeds ${maxBytes} bytes`); // leaving the loop cancels the stream
      chunks.push(chunk);
    }
  }
  return Buffer.concat(chunks);
}

/** The body of a 200 answer to GET `url`; throws on any other outcome. */
export async function boundedGet(url: URL, bounds: FetchBounds, headers?: RequestInit['headers']): Promise<Uint8Array> {
  const signal = AbortSignal.timeout(bounds.timeoutMs); // covers redirects and the body
  let current = url;
  for (let hop = 0; ; hop++) {
    const res = await fetch(current, { method: 'GET', redirect: 'manual', signal, headers });
    const location = res.headers.get('location');
    if (res.status >= 300 && res.status < 400 && location !== null) {
      await res.body?.cancel();
      const next = new URL(location, current);
      if (next.origin !== url.origin || hop >= MAX_REDIRECTS) throw new Error(`redirect away from ${url.origin} refused`);
      current = next;
      continue;
    }
    if (res.status !== 200) {
      await res.body?.cancel();
      throw new Error(`GET ${current.origin} answered ${res.status}`);
    }
    return readBounded(res, bounds.maxBytes);
  }
}

/** A fetch() stand-in for libraries that fetch on their own (jose's remote JWKS). */
export function boundedFetch(bounds: FetchBounds): (input: string | URL, init?: RequestInit) => Promise<Response> {
  return async (input, init) => {
    const body = await boundedGet(new URL(String(input)), bounds, init?.headers);
    return new Response(body, { status: 200, headers: { 'content-type': 'application/json' } });
  };
}

/** Status and body of a POST of `form` to `url` (no redirects followed); throws on timeout or an oversize answer. */
export async function boundedPostForm(url: URL, form: URLSearchParams, bounds: FetchBounds): Promise<{ status: number; body: Uint8Array }> {
  const signal = AbortSignal.timeout(bounds.timeoutMs);
  const res = await fetch(url, {
    method: 'POST',
    redirect: 'manual',
    signal,
    headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
    body: form,
  });
  return { status: res.status, body: await readBounded(res, bounds.maxBytes) };
}

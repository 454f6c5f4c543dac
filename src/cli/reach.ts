// fetch for the CLI, whose failures name the server and the cause: Node's own
// message for an unreachable server is only "fetch failed".
export async function reach(base: string, url: URL | string, init?: RequestInit): Promise<Response> {
  try {
    return await fetch(url, { signal: AbortSignal.timeout(30_000), ...init });
  } catch (err) {
    const e = err as Error & { cause?: { code?: string; message?: string } };
    const cause = e.name === 'TimeoutError' ? 'no answer within 30 s' : (e.cause?.code ?? e.cause?.message ?? e.message);
    throw new Error(`cannot reach the Berth API at ${base} (${cause}); is \`berth serve\` running there? Set --api or BERTH_API to another URL`);
  }
}

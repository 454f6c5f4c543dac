// What the CLI learns from the API's discovery document: the issuer URL that
// assertions are addressed to, and — when the server runs a registry — the
// registry's URL and token audience (its host[:port]), which pull tokens, the
// docker credential helper and `configure-docker` need.
export interface ApiDiscovery {
  issuer: string;
  registryUrl?: string;
  /** host[:port] of the registry: the audience of registry tokens, the name docker uses. */
  registryAudience?: string;
}

/** The discovery document's answer; an unreachable or odd document leaves the API URL as issuer and no registry. */
export async function apiDiscovery(api: string): Promise<ApiDiscovery> {
  try {
    const res = await fetch(new URL('/.well-known/openid-configuration', api), { signal: AbortSignal.timeout(10_000) });
    const doc = (await res.json()) as { issuer?: unknown; berth_registry_url?: unknown; berth_registry_audience?: unknown };
    if (res.ok && typeof doc.issuer === 'string') {
      const registry =
        typeof doc.berth_registry_url === 'string' && typeof doc.berth_registry_audience === 'string'
          ? { registryUrl: doc.berth_registry_url, registryAudience: doc.berth_registry_audience }
          : {};
      return { issuer: doc.issuer, ...registry };
    }
  } catch {
    // fall through: address assertions to the API URL itself
  }
  return { issuer: api };
}

/** The registry host a command works with: --registry when given, else the one the API announces. */
export async function registryHostOf(api: string, flag: string | undefined): Promise<string> {
  if (flag !== undefined) return registryHostOfServer(flag);
  const found = (await apiDiscovery(api)).registryAudience;
  if (!found) throw new Error(`the Berth API at ${api} announces no registry (is it running with --registry-listen off?); pass --registry <host>`);
  return found;
}

/**
 * host[:port] of a registry as docker names it: "127.0.0.1:5000",
 * "https://reg.example.com", "reg.example.com/v2/" all name their host.
 * Throws on something that is no host.
 */
export function registryHostOfServer(server: string): string {
  const text = server.trim();
  if (text === '' || text.length > 2048 || /\s/.test(text) || text.includes('\u0000'))
    throw new Error(`not a registry host: ${JSON.stringify(server.slice(0, 100))}`);
  let url: URL;
  try {
    url = new URL(text.includes('://') ? text : `https://${text}`);
  } catch {
    throw new Error(`not a registry host: ${JSON.stringify(text.slice(0, 100))}`);
  }
  if (url.host === '' || url.username !== '' || url.password !== '') throw new Error(`not a registry host: ${JSON.stringify(text.slice(0, 100))}`);
  return url.host;
}

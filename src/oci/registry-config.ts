// What the registry listener is configured with (`berth serve --registry-*`,
// `--public-org`, `--history-segment`), checked once at start. The registry's
// token audience is the HOST (host[:port]) of its public URL, as clients name
// a registry by host (`docker login 127.0.0.1:5000`).

export interface RegistryConfig {
  /** The URL clients reach the registry at, without a trailing slash. */
  publicUrl: string;
  /** host[:port] of publicUrl: the registry tokens' audience and the `service` of the challenge. */
  host: string;
  /** The organization whose repos anyone may pull at the free-tier tags. */
  publicOrg: string;
  /** The path segment before `history` in the tag history route (`_berth`). */
  historySegment: string;
}

export const DEFAULT_PUBLIC_ORG = 'public';
/** One hour: a 10 GiB layer at 3 MB/s. A stalled sender is cut much sooner by the idle timeout. */
export const REGISTRY_REQUEST_TIMEOUT_MS = 3_600_000;
export const DEFAULT_HISTORY_SEGMENT = '_berth';
/** The tags an anonymous caller may reach in the public organization. */
export const FREE_TIER_TAGS: readonly string[] = ['latest', 'latest-dev'];

// An underscore first: no repository path component can start with one, so the
// history route can never be read as part of a repository name.
const HISTORY_SEGMENT = /^_[a-z0-9][a-z0-9_-]{0,62}$/;
// One path component of a repository name (the OCI grammar), as an org name must be to be addressed.
const ORG_COMPONENT = /^[a-z0-9]+(?:(?:[._]|__|-+)[a-z0-9]+)*$/;

export function historySegmentProblem(segment: string): string | undefined {
  return HISTORY_SEGMENT.test(segment)
    ? undefined
    : `--history-segment must be "_" then 1-63 of [a-z0-9_-] (starting with a letter or digit), got ${JSON.stringify(segment)}`;
}

export function publicOrgProblem(org: string): string | undefined {
  return org.length <= 128 && ORG_COMPONENT.test(org) ? undefined : `--public-org must be a lowercase repository path component, got ${JSON.stringify(org)}`;
}

/** The public URL's host[:port], or a message when it is not an http(s) URL without path, query or credentials. */
export function registryPublicUrl(value: string): { url: string; host: string } | string {
  let u: URL;
  try {
    u = new URL(value);
  } catch {
    return `--registry-public-url must be an http(s) URL, got ${JSON.stringify(value)}`;
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:') return `--registry-public-url must be http or https, got ${JSON.stringify(value)}`;
  if (u.username || u.password || u.search || u.hash || (u.pathname !== '/' && u.pathname !== '')) {
    return `--registry-public-url must be scheme://host[:port] only (registries live at the root), got ${JSON.stringify(value)}`;
  }
  return { url: `${u.protocol}//${u.host}`, host: u.host };
}

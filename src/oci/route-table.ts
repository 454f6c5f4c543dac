// The registry's routes under /v2/<name>/…, as data (like distribution's
// descriptors): repository names hold '/', so Fastify's path patterns cannot
// tell where a name ends; each route is a regular expression over the raw
// (undecoded) path with named groups. The listener hands every /v2/* request
// to match(). Fastify never buffers a registry body: a handler either reads it
// whole through readBody() — bounded by the route's bodyLimit, and only after
// it has authorized the request — or streams request.raw itself (blobs).
import type { FastifyReply, FastifyRequest } from 'fastify';

export type OciMethod = 'GET' | 'HEAD' | 'PUT' | 'POST' | 'PATCH' | 'DELETE';

/** One path component of a repository name, and a whole name (the OCI grammar). */
export const NAME_COMPONENT = '[a-z0-9]+(?:(?:[._]|__|-+)[a-z0-9]+)*';
export const NAME_PATTERN = `${NAME_COMPONENT}(?:/${NAME_COMPONENT})*`;
export const TAG_PATTERN = '[A-Za-z0-9_][A-Za-z0-9._-]{0,127}';
export const DIGEST_PATTERN = '[a-z0-9]+(?:[+._-][a-z0-9]+)*:[a-zA-Z0-9=_-]+';
export const REFERENCE_PATTERN = `(?:${TAG_PATTERN}|${DIGEST_PATTERN})`;

export interface OciRouteCall {
  request: FastifyRequest;
  reply: FastifyReply;
  /** The route's named groups (e.g. name, reference). */
  params: Readonly<Record<string, string>>;
  /** Reads the whole body, refusing more than the route's bodyLimit (413). Call after authorizing. */
  readBody(): Promise<Buffer>;
}

export interface OciRoute {
  /** For logs and docs, e.g. "tag history". */
  name: string;
  methods: readonly OciMethod[];
  /** Anchored, over the raw path, with named groups. */
  path: RegExp;
  /** The most readBody() reads, in bytes; 0 when absent (the route takes no body, or streams request.raw). */
  bodyLimit?: number;
  handle(call: OciRouteCall): Promise<unknown>;
}

/** Longest path the table looks at: a 255-character name plus the longest route suffix fits well. */
const MAX_PATH = 1024;

export class OciRouteTable {
  private readonly routes: OciRoute[] = [];

  add(route: OciRoute): void {
    if (!route.path.source.startsWith('^') || !route.path.source.endsWith('$')) throw new Error(`route ${route.name}: the path pattern must be anchored`);
    this.routes.push(route);
  }

  /** The route and its parameters; `allowed` lists other methods when only the method is wrong. */
  match(method: string, path: string): { route: OciRoute; params: Record<string, string> } | { allowed: OciMethod[] } | undefined {
    if (path.length > MAX_PATH) return undefined;
    const allowed = new Set<OciMethod>();
    for (const route of this.routes) {
      const m = route.path.exec(path);
      if (!m) continue;
      if ((route.methods as readonly string[]).includes(method)) return { route, params: { ...(m.groups ?? {}) } };
      for (const x of route.methods) allowed.add(x);
    }
    return allowed.size > 0 ? { allowed: [...allowed] } : undefined;
  }
}

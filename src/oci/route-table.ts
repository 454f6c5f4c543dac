// The registry's routes under /v2/<name>/…, as data (like distribution's
// descriptors): repository names hold '/', so Fastify's path patterns cannot
// tell where a name ends; each route is a regular expression over the raw
// (undecoded) path with named groups. The listener hands every /v2/* request
// to match(). Each route declares the action it needs on the repository its
// path names (`action`, required by the type), and the dispatcher
// (route-dispatch.ts) authorizes it before handle() runs — default deny: a
// route is never reached unauthorized. Fastify never buffers a registry body:
// a handler either reads it whole through readBody() — bounded by the route's
// bodyLimit, so only once authorized — or streams request.raw itself (blobs).
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { RegistryAccess } from './authorize-repo.js';
import type { RepoAction } from './token-scope.js';

export type OciMethod = 'GET' | 'HEAD' | 'PUT' | 'POST' | 'PATCH' | 'DELETE';

/** One path component of a repository name, and a whole name (the OCI grammar). */
export const NAME_COMPONENT = '[a-z0-9]+(?:(?:[._]|__|-+)[a-z0-9]+)*';
export const NAME_PATTERN = `${NAME_COMPONENT}(?:/${NAME_COMPONENT})*`;
export const TAG_PATTERN = '[A-Za-z0-9_][A-Za-z0-9._-]{0,127}';
export const DIGEST_PATTERN = '[a-z0-9]+(?:[+._-][a-z0-9]+)*:[a-zA-Z0-9=_-]+';
export const REFERENCE_PATTERN = `(?:${TAG_PATTERN}|${DIGEST_PATTERN})`;

/** What a route needs on the repository its path names; 'none' for a route that checks its caller itself. */
export type OciAction = RepoAction | 'none';

export interface OciRouteCall {
  request: FastifyRequest;
  reply: FastifyReply;
  /** The route's named groups (e.g. name, reference). */
  params: Readonly<Record<string, string>>;
  /** Reads the whole body, refusing more than the route's bodyLimit (413). */
  readBody(): Promise<Buffer>;
}

/** A call to a route that declared a repository action: what authorization resolved (the caller, the repo target, the granted actions). */
export interface AuthorizedCall extends OciRouteCall {
  access: RegistryAccess;
}

interface RouteShape {
  /** For logs and docs, e.g. "tag history". */
  name: string;
  /** The path with its groups as {name}, e.g. /v2/{name}/tags/list: the route's label in the access log and metrics. */
  template: string;
  methods: readonly OciMethod[];
  /** Anchored, over the raw path, with named groups; a `name` group when the action is a repository action. */
  path: RegExp;
  /** The most readBody() reads, in bytes; 0 when absent (the route takes no body, or streams request.raw). */
  bodyLimit?: number;
}

/** A route authorized for `action` on repository `name` before it runs. */
export interface RepoRoute extends RouteShape {
  action: RepoAction;
  handle(call: AuthorizedCall): Promise<unknown>;
}

/** A route that needs no repository action (it authenticates its caller itself, or is public). */
export interface OpenRoute extends RouteShape {
  action: 'none';
  handle(call: OciRouteCall): Promise<unknown>;
}

export type OciRoute = RepoRoute | OpenRoute;

const ACTIONS: readonly OciAction[] = ['pull', 'push', 'delete', 'none'];

/** Why a route cannot go in the table, or undefined: the runtime twin of the type (for routes built from untyped data). */
export function routeProblem(route: OciRoute): string | undefined {
  const source = route.path.source;
  if (!source.startsWith('^') || !source.endsWith('$')) return `route ${route.name}: the path pattern must be anchored`;
  if (!ACTIONS.includes(route.action)) return `route ${route.name}: declare its action (${ACTIONS.join(', ')})`;
  if (route.action !== 'none' && !source.includes('(?<name>')) return `route ${route.name}: a ${route.action} route needs a name group`;
  return undefined;
}

/** Longest path the table looks at: a 255-character name plus the longest route suffix fits well. */
const MAX_PATH = 1024;

export class OciRouteTable {
  private readonly routes: OciRoute[] = [];

  add(route: OciRoute): void {
    const problem = routeProblem(route);
    if (problem) throw new Error(problem);
    this.routes.push(route);
  }

  /** Every route, in match order. */
  list(): readonly OciRoute[] {
    return this.routes;
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

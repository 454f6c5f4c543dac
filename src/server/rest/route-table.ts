// The REST route table, read from the google.api.http annotations of the
// registered services: the contract is the only route table.
import type { DescMethod, DescService } from '@bufbuild/protobuf';
import { getOption, hasOption } from '@bufbuild/protobuf';
import { http } from '../../gen/google/api/annotations_pb.js';
import type { HttpRule } from '../../gen/google/api/http_pb.js';
import { compareSpecificity, leadingLiterals, matchTemplate, parseTemplate, type PathTemplate } from './path-template.js';

export interface RestRoute {
  httpMethod: string;
  /** The binding's path as written, e.g. /iam/v2/groups/{uid}: the route's label in logs and metrics. */
  path: string;
  template: PathTemplate;
  /** "" (no body), "*" or a top-level request field name. */
  body: string;
  service: DescService;
  method: DescMethod;
}

function bindingsOf(rule: HttpRule): Array<{ httpMethod: string; path: string; body: string }> {
  const out: Array<{ httpMethod: string; path: string; body: string }> = [];
  const add = (r: HttpRule) => {
    const p = r.pattern;
    if (p.case === undefined) return;
    if (p.case === 'custom') out.push({ httpMethod: p.value.kind.toUpperCase(), path: p.value.path, body: r.body });
    else out.push({ httpMethod: p.case.toUpperCase(), path: p.value, body: r.body });
  };
  add(rule);
  for (const extra of rule.additionalBindings) add(extra);
  return out;
}

/** The key of a bucket of routes: the method and the first two path segments ("GET registry/v2"). */
const bucketKey = (httpMethod: string, first: string | undefined, second: string | undefined) => `${httpMethod} ${first}/${second}`;
/** The bucket of routes that do not start with two literals, which every request may match. */
const WILD = '*';

export class RouteTable {
  private readonly byMethod = new Map<string, RestRoute[]>();
  // A request is matched only against the routes that can take its first two
  // segments (every binding of the contract starts with two literals), plus any
  // that do not start with two literals, in the same order of specificity.
  private readonly buckets = new Map<string, RestRoute[]>();
  /** Every route, in the order of the services, their methods and bindings (the OpenAPI document's order). */
  readonly routes: readonly RestRoute[] = [];

  constructor(services: readonly DescService[]) {
    for (const service of services) {
      for (const method of service.methods) {
        if (method.methodKind !== 'unary' || !hasOption(method, http)) continue;
        for (const b of bindingsOf(getOption(method, http))) {
          const route: RestRoute = { httpMethod: b.httpMethod, path: b.path, template: parseTemplate(b.path), body: b.body, service, method };
          (this.routes as RestRoute[]).push(route);
          const list = this.byMethod.get(b.httpMethod) ?? [];
          list.push(route);
          this.byMethod.set(b.httpMethod, list);
        }
      }
    }
    for (const list of this.byMethod.values()) list.sort((a, b) => compareSpecificity(a.template, b.template));
    for (const [m, list] of this.byMethod) {
      const keyOf = (r: RestRoute) => {
        const lead = leadingLiterals(r.template);
        return lead.length < 2 ? WILD : bucketKey(m, lead[0], lead[1]);
      };
      const keys = new Set(list.map(keyOf));
      for (const key of keys)
        this.buckets.set(
          key === WILD ? `${m} ${WILD}` : key,
          list.filter((r) => keyOf(r) === key || keyOf(r) === WILD),
        );
    }
  }

  /** Literal path prefixes ("/iam/v2") the table serves, for registering handlers. */
  prefixes(): string[] {
    const set = new Set<string>();
    for (const list of this.byMethod.values()) for (const r of list) set.add(`/${leadingLiterals(r.template).slice(0, 2).join('/')}`);
    return [...set];
  }

  allowedMethods(segments: string[], verb: string | undefined): string[] {
    const out: string[] = [];
    for (const [m, list] of this.byMethod) if (list.some((r) => matchTemplate(r.template, segments, verb) !== undefined)) out.push(m);
    return out;
  }

  /** The most specific route for the request, with its path variables by field path. */
  match(httpMethod: string, pathname: string): { route: RestRoute; variables: Record<string, string> } | undefined {
    const { segments, verb } = splitPath(pathname);
    const candidates = this.buckets.get(bucketKey(httpMethod, segments[0], segments[1])) ?? this.buckets.get(`${httpMethod} ${WILD}`) ?? [];
    for (const route of candidates) {
      const variables = matchTemplate(route.template, segments, verb);
      if (variables !== undefined) return { route, variables };
    }
    return undefined;
  }
}

/** The alias a v2 route is also served under ("/iam/v2/…" → "/iam/v2beta1/…"); undefined for other versions. */
export function v2beta1Alias(path: string): string | undefined {
  return /^\/[^/]+\/v2(?=[/:]|$)/.test(path) ? path.replace(/^(\/[^/]+\/)v2/, '$1v2beta1') : undefined;
}

/** "/a/b/c:verb" → segments [a,b,c] and verb; "/x/v2beta1/…" is served as "/x/v2/…". */
export function splitPath(pathname: string): { segments: string[]; verb: string | undefined } {
  let path = pathname;
  let verb: string | undefined;
  const lastSlash = path.lastIndexOf('/');
  const colon = path.indexOf(':', lastSlash);
  if (colon >= 0) {
    verb = path.slice(colon + 1);
    path = path.slice(0, colon);
  }
  const segments = path
    .split('/')
    .slice(1)
    .map((s) => {
      try {
        return decodeURIComponent(s);
      } catch {
        return s;
      }
    });
  if (segments[1] === 'v2beta1') segments[1] = 'v2';
  return { segments, verb };
}

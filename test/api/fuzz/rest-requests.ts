// REST requests over every route the API declares (the google.api.http rules
// of the services, read from their descriptors) and the few routes outside
// them: odd uids in paths, odd query parameters, bodies of the wrong shape.
import type { DescMessage, DescMethod, DescService } from '@bufbuild/protobuf';
import { getOption, hasOption } from '@bufbuild/protobuf';
import { http } from '../../../src/gen/google/api/annotations_pb.js';
import type { HttpRule } from '../../../src/gen/google/api/http_pb.js';
import { deepJson, type Messages } from './messages.js';
import type { Random } from './random.js';

export interface FuzzRequest {
  protocol: 'rest' | 'connect' | 'grpc' | 'grpc-web' | 'grpc-typed';
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: string | Uint8Array;
}

interface Route {
  httpMethod: string;
  path: string;
  /** The message the body holds, if the route takes one. */
  body?: DescMessage;
  input: DescMessage;
}

/** Every REST binding of every unary method, from the services' http rules. */
export function routesOf(services: readonly DescService[]): Route[] {
  const out: Route[] = [];
  for (const s of services) {
    for (const m of s.methods) {
      if (m.methodKind !== 'unary' || !hasOption(m, http)) continue;
      const rule = getOption(m, http);
      for (const r of [rule, ...rule.additionalBindings]) {
        const b = binding(r, m);
        if (b) out.push(b);
      }
    }
  }
  return out;
}

function binding(r: HttpRule, m: DescMethod): Route | undefined {
  const p = r.pattern;
  if (p.case === undefined) return undefined;
  const [httpMethod, path] = p.case === 'custom' ? [p.value.kind.toUpperCase(), p.value.path] : [p.case.toUpperCase(), p.value];
  const body = r.body === '' ? undefined : r.body === '*' ? m.input : m.input.fields.find((f) => f.name === r.body)?.message;
  return { httpMethod, path, body, input: m.input };
}

/** Routes outside the services: token exchange, discovery, health. */
const EXTRA: Array<{ httpMethod: string; path: string }> = [
  { httpMethod: 'GET', path: '/sts/exchange' },
  { httpMethod: 'POST', path: '/sts/exchange' },
  { httpMethod: 'GET', path: '/.well-known/openid-configuration' },
  { httpMethod: 'GET', path: '/.well-known/jwks.json' },
  { httpMethod: 'GET', path: '/healthz' },
];

const METHODS = ['GET', 'POST', 'PATCH', 'DELETE', 'PUT'];

/** encodeURIComponent, except that a lone surrogate becomes bytes that are not UTF-8. */
function escapeSegment(s: string): string {
  try {
    return encodeURIComponent(s);
  } catch {
    return `${encodeURIComponent(s.replace(/[\ud800-\udfff]/g, ''))}%ED%A0%80`;
  }
}

export class RestRequests {
  constructor(
    private readonly r: Random,
    private readonly messages: Messages,
    private readonly routes: readonly Route[],
    private readonly auth: () => Record<string, string>,
    private readonly pageTokens: () => readonly string[],
    private readonly known: () => readonly string[],
  ) {}

  next(): FuzzRequest {
    const r = this.r;
    if (r.chance(0.05)) return this.extra();
    const route = r.pick(this.routes);
    // A tame request aims at a real resource with a well-formed body but for an odd value or two.
    const tame = r.chance(0.3);
    let path = route.path.replace(/\{[^}]+\}/g, () => (tame ? r.pick(this.known()) : this.pathUid()));
    if (r.chance(0.1)) path = path.replace('/v2/', '/v2beta1/');
    const query = this.query(route);
    const method = r.chance(0.04) ? r.pick(METHODS) : route.httpMethod;
    const req: FuzzRequest = { protocol: 'rest', method, path: query ? `${path}?${query}` : path, headers: this.auth() };
    if (tame && route.body && method !== 'GET') {
      req.headers = { ...req.headers, 'content-type': 'application/json' };
      req.body = JSON.stringify(this.messages.json(route.body, 0, true));
    } else if ((route.body || r.chance(0.05)) && method !== 'GET') {
      this.addBody(req, route.body ?? route.input);
    }
    return req;
  }

  private extra(): FuzzRequest {
    const r = this.r;
    const e = r.pick(EXTRA);
    const q = new URLSearchParams();
    if (r.chance(0.7)) q.set('identity', this.messages.uid());
    if (r.chance(0.7)) q.set('aud', r.pick(['http://127.0.0.1', r.weirdString(), 'https://berth.invalid']));
    const headers = r.chance(0.5)
      ? { authorization: r.pick(['Bearer x.y.z', `Bearer ${'e'.repeat(r.int(10, 6000))}`, 'Bearer eyJhbGciOiJub25lIn0.e30.', 'Basic Zm9vOmJhcg==', 'Bearer']) }
      : this.auth();
    return { protocol: 'rest', method: e.httpMethod, path: `${e.path}?${q}`, headers };
  }

  /** A uid for a path, escaped as a client might (or might not) escape it. */
  private pathUid(): string {
    const uid = this.messages.uid();
    const r = this.r.int(0, 9);
    if (r < 7) return uid.split('/').map(escape).join('/');
    if (r < 9) return escapeSegment(uid);
    return uid.replace(/[?#%]/g, (c) => encodeURIComponent(c));
  }

  private query(route: Route): string {
    const r = this.r;
    const q = new URLSearchParams();
    const n = route.httpMethod === 'GET' ? r.int(0, 5) : r.chance(0.3) ? r.int(1, 2) : 0;
    for (let i = 0; i < n; i++) {
      const [key, value] = this.param(route);
      q.append(key, value);
    }
    if (r.chance(0.02)) for (let i = 0; i < 150; i++) q.append(`p${i}`, 'x');
    return q.toString();
  }

  private param(route: Route): [string, string] {
    const r = this.r;
    const m = this.messages;
    const named = route.input.fields.filter((f) => f.fieldKind === 'scalar' || f.fieldKind === 'enum');
    switch (r.int(0, 11)) {
      case 0:
        return [r.pick(['page_size', 'pageSize']), String(r.weirdNumber())];
      case 1:
        return [r.pick(['page_token', 'pageToken']), this.pageToken()];
      case 2:
        return [
          r.pick(['order_by', 'orderBy']),
          r.pick(['name', 'name desc', 'uid asc', 'created_at desc', 'updated_at', 'nope', 'name sideways', 'name desc, uid', r.weirdString()]),
        ];
      case 3:
        return ['skip', String(r.weirdNumber())];
      case 4:
        return [
          r.pick(['uidp.children_of', 'uidp.descendants_of', 'uidp.ancestors_of', 'uidp.childrenOf', 'uidp.ids', 'uidp.in_root']),
          r.chance(0.8) ? m.uid() : r.pick(['true', 'false', 'maybe']),
        ];
      case 5:
        return [r.pick(['updateMask', 'update_mask']), r.pick(['*', 'name', 'description', 'name,description', 'nope', '', 'a.b.c', r.weirdString()])];
      case 6:
        return [r.pick(['include_referrers', 'includeDates', 'include_epochs']), r.pick(['true', 'false', '1', 'yes', ''])];
      case 7:
        return [r.pick(['updated_since', 'updatedSince']), r.pick(['2026-01-01T00:00:00Z', 'yesterday', '0', '9999-12-31T23:59:59Z'])];
      case 8:
        return ['uidp', r.weirdString()];
      case 9:
        return [r.weirdString().slice(0, 30) || 'k', r.weirdString()];
      default: {
        if (named.length === 0) return ['name', r.weirdString()];
        const f = r.pick(named);
        return [
          r.chance(0.5) ? f.name : f.jsonName,
          /uid|parent|identity|group|role/.test(f.name) ? m.uid() : r.chance(0.5) ? r.weirdString() : String(r.weirdNumber()),
        ];
      }
    }
  }

  private pageToken(): string {
    const r = this.r;
    const tokens = this.pageTokens();
    const t = tokens.length > 0 ? r.pick(tokens) : 'x';
    switch (r.int(0, 5)) {
      case 0:
        return t;
      case 1:
        return t.slice(0, r.int(0, t.length));
      case 2:
        return `${t.slice(0, 10)}${r.pick(['A', 'B', '-', '_'])}${t.slice(11)}`;
      case 3:
        return Buffer.from(r.bytes(r.int(0, 200))).toString('base64url');
      case 4:
        return `${t}${t}`;
      default:
        return r.weirdString();
    }
  }

  private addBody(req: FuzzRequest, desc: DescMessage): void {
    const r = this.r;
    req.headers = {
      ...req.headers,
      'content-type': r.chance(0.92)
        ? 'application/json'
        : r.pick(['text/plain', 'application/x-www-form-urlencoded', 'application/json; charset=latin1', 'application/proto']),
    };
    switch (r.int(0, 15)) {
      case 0:
        req.body = r.pick(['{', '{"name": ', '[1,2]', 'null', '"x"', '', '{"a":1}{', '\u0000', 'nul', '{"name":"\\ud800"}', '{"name":"a\\u0000b"}']);
        return;
      case 1:
        req.body = JSON.stringify({ name: 'x'.repeat(r.pick([1_000_000, 2_200_000])) });
        return;
      case 2:
        req.body = Buffer.from(r.bytes(r.int(1, 300)));
        return;
      case 3:
        req.body = deepJson(r);
        return;
      default:
        req.body = JSON.stringify(this.messages.json(desc));
    }
  }
}

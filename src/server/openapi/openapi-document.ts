// The OpenAPI 3.1 document of the API listener, generated from the served
// services' descriptors (`npm run docs` writes docs/openapi.json; the server
// serves that file at /openapi.json, and a docs test fails when it differs
// from what this generates). Paths come from the google.api.http rules, their
// additional bindings and the /v2beta1/ aliases of /v2/ routes, in the order of
// the route table; schemas from the messages (openapi-schemas.ts); the error
// body is google.rpc.Status (AIP-193).
import type { DescService, JsonObject } from '@bufbuild/protobuf';
import { BadRequestSchema, ErrorInfoSchema, PreconditionFailureSchema, ResourceInfoSchema } from '../../gen/google/rpc/error_details_pb.js';
import { StatusSchema } from '../../gen/google/rpc/status_pb.js';
import { RouteTable, v2beta1Alias, type RestRoute } from '../rest/route-table.js';
import { DISCOVERY_TAG, HTTP_PATHS, SERVER_TAG, STS_TAG, UNDESCRIBED_ROUTES } from './http-operations.js';
import { applyExamples } from './operation-examples.js';
import { openApiPath, operationOf, tokenUse } from './openapi-operations.js';
import { SchemaSet } from './openapi-schemas.js';
import type { ProtoComments } from './proto-comments.js';

export const ALIAS_TAG = 'v2beta1 aliases';

export interface DocumentedService {
  service: DescService;
  /** Its anonymous RPCs ask for a token when the operator says so (--feed-requires-auth). */
  tokenByFlag?: boolean;
}

const DESCRIPTION = `Berth's REST/JSON API, generated from the protos (\`proto/berth/**\`) by \`npm run docs\`.

Every operation is also served over gRPC, gRPC-Web and Connect on the same port, at \`/<service>/<method>\`
(the operation's description names it); gRPC server reflection is on. Those paths are not listed here.

- JSON is proto3 JSON: lowerCamelCase keys (snake_case is accepted in requests and query parameters), int64 as
  strings, enums by name, timestamps in RFC 3339.
- Errors are \`google.rpc.Status\` (AIP-193) with an \`ErrorInfo\` detail; the HTTP status follows the gRPC code.
- \`/v2beta1/\` paths are aliases of \`/v2/\` ones.
- Not described here: ${UNDESCRIBED_ROUTES.map((r) => `\`${r.url}\` (${r.why})`).join('; ')}; and the OCI
  registry (\`/v2/\`, \`/token\`), which runs on its own listener (docs/registry.md).`;

function tagGroups(services: readonly DescService[]): JsonObject[] {
  const versions = new Map<string, string[]>();
  for (const s of services) {
    const v = /\.(v\d+\w*)\./.exec(s.typeName)?.[1] ?? 'other';
    versions.set(v, [...(versions.get(v) ?? []), s.typeName]);
  }
  return [
    ...[...versions].sort(([a], [b]) => b.localeCompare(a)).map(([name, tags]) => ({ name, tags })),
    { name: 'HTTP', tags: [STS_TAG, DISCOVERY_TAG, SERVER_TAG] },
    // The v2beta1 aliases are left out of the groups: Redoc shows no tag outside them, and
    // the page would list every v2 operation twice. They stay in `paths` for clients.
  ];
}

/**
 * The document's key for each path. OpenAPI holds "/repos/{uid}" and
 * "/repos/{parent}" to be one path, so routes of one shape share a key whose
 * variables are named "uid" where any route names it so, else as the first.
 */
function pathKeys(paths: readonly string[]): Map<string, string> {
  const byShape = new Map<string, string[]>();
  for (const p of paths) {
    const shape = p.replace(/\{[^}]+\}/g, '{}');
    byShape.set(shape, [...(byShape.get(shape) ?? []), p]);
  }
  const out = new Map<string, string>();
  for (const [shape, members] of byShape) {
    const names = members.map((p) => [...p.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]));
    let i = 0;
    const key = shape.replace(/\{\}/g, () => {
      const at = names.map((n) => n[i]);
      i++;
      return `{${at.includes('uid') ? 'uid' : at[0]}}`;
    });
    for (const p of members) out.set(p, key);
  }
  return out;
}

export function openApiDocument(documented: readonly DocumentedService[], version: string, comments: ProtoComments = new Map()): JsonObject {
  const services = documented.map((d) => d.service);
  const byFlag = new Set(documented.filter((d) => d.tokenByFlag).map((d) => d.service));
  const schemas = new SchemaSet(comments);
  const paths: Record<string, JsonObject> = {};
  const ids = new Set<string>();
  const entries: Array<{ route: RestRoute; path: string; alias?: string }> = [];
  for (const route of new RouteTable(services).routes) {
    const path = openApiPath(route);
    entries.push({ route, path }, ...(v2beta1Alias(path) ? [{ route, path: v2beta1Alias(path) as string, alias: path }] : []));
  }
  const keys = pathKeys(entries.map((e) => e.path));
  for (const { route, path, alias } of entries) {
    const key = keys.get(path) as string;
    const names = [...key.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]);
    const method = route.httpMethod.toLowerCase();
    paths[key] ??= {};
    const item = paths[key];
    if (item[method]) throw new Error(`two routes for ${route.httpMethod} ${key}`);
    const op = operationOf(schemas, route, names, tokenUse(route.method, byFlag.has(route.service)));
    if (alias) Object.assign(op, { description: `Alias of \`${route.httpMethod} ${alias}\`.`, tags: [ALIAS_TAG], deprecated: true });
    let id = `${op.operationId as string}${alias ? '.v2beta1' : ''}`;
    for (let n = 2; ids.has(id); n++) id = `${op.operationId as string}${alias ? '.v2beta1' : ''}.${n}`;
    ids.add(id);
    op.operationId = id;
    item[method] = op;
  }
  for (const [path, item] of Object.entries(HTTP_PATHS)) paths[path] = item;
  schemas.message(StatusSchema);
  for (const d of [ErrorInfoSchema, BadRequestSchema, ResourceInfoSchema, PreconditionFailureSchema]) schemas.message(d);
  const doc: JsonObject = {
    openapi: '3.1.0',
    info: { title: 'Berth API', version, description: DESCRIPTION, license: { name: 'Apache-2.0', identifier: 'Apache-2.0' } },
    tags: [
      ...services.map((s) => ({
        name: s.typeName,
        'x-displayName': `${s.typeName.split('.')[1]} · ${s.name}`,
        description: [comments.get(s.typeName), `gRPC service \`${s.typeName}\`.`].filter((t) => t).join('\n\n'),
      })),
      { name: STS_TAG, description: 'Tokens: exchange, refresh, sign in through an identity provider, sign out.' },
      { name: DISCOVERY_TAG, description: 'Berth is an OpenID Connect issuer.' },
      { name: SERVER_TAG, description: 'Health and this reference.' },
      { name: ALIAS_TAG, description: 'Every `/v2/` path is also served under `/v2beta1/`.' },
    ],
    'x-tagGroups': tagGroups(services),
    paths,
    components: {
      schemas: schemas.schemas,
      responses: {
        Error: {
          description: 'An error: `google.rpc.Status` in proto3 JSON (AIP-193), with an `ErrorInfo` detail and the specific one (docs/errors.md)',
          content: { 'application/json': { schema: { $ref: `#/components/schemas/${StatusSchema.typeName}` } } },
        },
      },
      securitySchemes: {
        bearerAuth: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT', description: 'A Berth token (`berth auth token`, or /sts/exchange).' },
        assertion: {
          type: 'http',
          scheme: 'bearer',
          bearerFormat: 'JWT',
          description: 'An assertion to exchange: a self-signed JWT or an external OIDC ID token.',
        },
        refreshToken: { type: 'http', scheme: 'bearer', description: 'A Berth refresh token.' },
      },
    },
  };
  applyExamples(doc);
  return doc;
}

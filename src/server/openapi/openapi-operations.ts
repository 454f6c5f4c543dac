// One OpenAPI operation per REST route, following grpc-gateway's transcoding
// (src/server/rest/request-message.ts does the same at run time): path
// variables are path parameters; the body is the whole request ("*") less the
// path fields, or the one field the rule names; every other field is a query
// parameter — nested fields dotted, repeated ones by repetition — unless the
// body is "*". Repeated messages and maps cannot be set from a query, except
// the message types with a text form (query-messages.ts).
import type { DescField, DescMessage, DescMethod, DescService, JsonObject, JsonValue } from '@bufbuild/protobuf';
import { getOption, hasOption, type ScalarType } from '@bufbuild/protobuf';
import { events, iam, iam_scope } from '../../gen/berth/annotations/v1/annotations_pb.js';
import { CapabilitySchema } from '../../gen/berth/capabilities/v1/capabilities_pb.js';
import { queryMessageType } from '../rest/query-messages.js';
import type { RestRoute } from '../rest/route-table.js';
import { scalarSchema, type SchemaSet } from './openapi-schemas.js';

/** How deep nested message fields are flattened into query parameters. */
const MAX_QUERY_DEPTH = 4;

/** Message types whose JSON form is a string, so a query parameter can set them. */
const STRING_WELL_KNOWN = new Set(['google.protobuf.Timestamp', 'google.protobuf.Duration', 'google.protobuf.FieldMask']);

/** How an operation's token is asked for. */
export type TokenUse = 'required' | 'none' | 'operator';

export function tokenUse(method: DescMethod, requireTokenByFlag: boolean): TokenUse {
  const rule = hasOption(method, iam) ? getOption(method, iam) : undefined;
  if (rule?.mode.case === 'enabled') return 'required';
  return requireTokenByFlag ? 'operator' : 'none';
}

/** The OpenAPI path of a route ("/registry/v2/repos/{uid=**}" → "/registry/v2/repos/{uid}"). */
export function openApiPath(route: RestRoute): string {
  const parts = route.template.parts.map((p) => ('literal' in p ? p.literal : `{${p.fieldPath}}`));
  return `/${parts.join('/')}${route.template.verb ? `:${route.template.verb}` : ''}`;
}

function fieldAt(desc: DescMessage, path: string): DescField | undefined {
  let d: DescMessage | undefined = desc;
  let f: DescField | undefined;
  for (const part of path.split('.')) {
    f = d?.fields.find((x) => x.name === part);
    d = f?.fieldKind === 'message' ? f.message : undefined;
  }
  return f;
}

function queryParameters(schemas: SchemaSet, desc: DescMessage, prefix: string, skip: Set<string>, depth: number, out: JsonObject[]): void {
  for (const f of desc.fields) {
    if (skip.has(f.name)) continue;
    const name = `${prefix}${f.jsonName}`;
    let schema: JsonObject | undefined;
    if (f.fieldKind === 'scalar') schema = scalarSchema(f.scalar as ScalarType);
    else if (f.fieldKind === 'enum') schema = schemas.enum(f.enum);
    else if (f.fieldKind === 'list' && f.listKind !== 'message') schema = { type: 'array', items: schemas.valueOf(f) };
    else if (f.fieldKind === 'list' && f.listKind === 'message' && queryMessageType(f.message.typeName)) {
      schema = { type: 'array', items: { type: 'string' } };
    } else if (f.fieldKind === 'message' && STRING_WELL_KNOWN.has(f.message.typeName)) schema = schemas.message(f.message);
    else if (f.fieldKind === 'message' && !f.message.typeName.startsWith('google.protobuf.') && depth < MAX_QUERY_DEPTH) {
      const inner = [...skip].filter((p) => p.startsWith(`${f.name}.`)).map((p) => p.slice(f.name.length + 1));
      queryParameters(schemas, f.message, `${name}.`, new Set(inner), depth + 1, out);
    }
    if (!schema) continue;
    const param: JsonObject = { name, in: 'query', schema };
    const comment = schemas.comments.get(`${desc.typeName}.${f.name}`);
    if (comment) param.description = comment;
    if (schema.type === 'array') {
      param.style = 'form';
      param.explode = true;
    }
    if (f.fieldKind === 'list' && f.listKind === 'message') {
      param.description = [comment, `${f.message.name} as text or as a JSON object; repeat the parameter for several.`].filter((t) => t).join('\n\n');
    }
    out.push(param);
  }
}

/** A message's schema inlined less some properties, and without `required` when `partial`. */
function trimmed(schemas: SchemaSet, desc: DescMessage, drop: Set<string>, partial: boolean): JsonObject {
  schemas.message(desc);
  const whole = schemas.schemas[desc.typeName] as JsonObject;
  const properties = Object.fromEntries(Object.entries(whole.properties as JsonObject).filter(([k]) => !drop.has(k)));
  const out: JsonObject = { type: 'object', title: whole.title as string, properties };
  const required = partial ? [] : ((whole.required as string[] | undefined) ?? []).filter((k) => !drop.has(k));
  if (required.length > 0) out.required = required;
  if (whole.dependentSchemas) out.dependentSchemas = whole.dependentSchemas;
  if (whole.description) out.description = whole.description;
  return out;
}

function requestBody(schemas: SchemaSet, route: RestRoute, pathFields: Set<string>): JsonObject | undefined {
  const input = route.method.input;
  // A PATCH body changes the fields it holds (or those of the update mask): none is required.
  const partial = route.httpMethod === 'PATCH';
  let schema: JsonObject;
  if (route.body === '') return undefined;
  if (route.body === '*') {
    // The whole request less its path fields, which the path sets.
    const top = [...pathFields].filter((p) => !p.includes('.'));
    const drop = new Set(top.map((p) => input.fields.find((f) => f.name === p)?.jsonName ?? p));
    schema = top.length === 0 && !partial ? schemas.message(input) : trimmed(schemas, input, drop, partial);
  } else {
    const f = input.fields.find((x) => x.name === route.body) as DescField;
    schema =
      partial && f.fieldKind === 'message' && !f.message.typeName.startsWith('google.protobuf.')
        ? trimmed(schemas, f.message, new Set(), true)
        : schemas.field(f);
  }
  return { content: { 'application/json': { schema } } };
}

function describe(schemas: SchemaSet, service: DescService, method: DescMethod, token: TokenUse): string {
  const comment = schemas.comments.get(`${service.typeName}.${method.name}`);
  const lines = [...(comment ? [comment] : []), `gRPC, Connect and gRPC-Web: \`/${service.typeName}/${method.name}\`.`];
  const rule = hasOption(method, iam) ? getOption(method, iam) : undefined;
  if (rule?.mode.case === 'enabled') {
    const caps = rule.mode.value.capabilities.map((c) => `\`${CapabilitySchema.value[c]?.name ?? c}\``);
    if (rule.mode.value.unscoped) lines.push(caps.length > 0 ? `Answers only what the caller may see with ${caps.join(', ')}.` : 'Any identity.');
    else lines.push(`Needs ${caps.join(', ')} at \`${scopePath(method.input)}\` (a binding there or on a group above it).`);
  } else if (token === 'operator') {
    lines.push('No token needed, unless the server runs with `--feed-requires-auth` (then any identity).');
  } else {
    lines.push('No token needed.');
  }
  if (hasOption(method, events)) {
    const e = getOption(method, events);
    if (e.type !== '') lines.push(`Emits the event \`${e.type}\`.`);
  }
  return lines.join('\n\n');
}

/** The request field the capabilities are checked at ("uid", "repo.uid"). */
function scopePath(input: DescMessage): string {
  const isScope = (f: DescField) => hasOption(f, iam_scope) && getOption(f, iam_scope);
  const f = input.fields.find(isScope);
  if (!f) return 'the request';
  const inner = f.fieldKind === 'message' ? f.message.fields.find(isScope) : undefined;
  return inner ? `${f.name}.${inner.name}` : f.name;
}

const SECURITY: Record<TokenUse, JsonValue> = {
  required: [{ bearerAuth: [] }],
  none: [],
  operator: [{}, { bearerAuth: [] }],
};

/**
 * The operation of one route. `pathNames` are the names the document's path
 * key gives its variables (one key per path shape: another route of the same
 * shape may have named them first).
 */
export function operationOf(schemas: SchemaSet, route: RestRoute, pathNames: string[], token: TokenUse): JsonObject {
  const { service, method } = route;
  const parameters: JsonObject[] = [];
  const pathFields = new Set<string>();
  let i = 0;
  for (const part of route.template.parts) {
    if ('literal' in part) continue;
    pathFields.add(part.fieldPath);
    const f = fieldAt(method.input, part.fieldPath);
    const schema = f && f.fieldKind === 'scalar' ? scalarSchema(f.scalar as ScalarType) : { type: 'string' };
    const name = pathNames[i++];
    const sets = name === part.fieldPath ? '' : `Sets the request's \`${part.fieldPath}\`. `;
    const description = part.multi ? `${sets}A uid: its "/" may be sent as is or percent-encoded.` : sets.trim();
    parameters.push({ name, in: 'path', required: true, schema, ...(description ? { description } : {}) });
  }
  if (route.body !== '*') {
    const skip = new Set(pathFields);
    if (route.body !== '') skip.add(route.body);
    queryParameters(schemas, method.input, '', skip, 0, parameters);
  }
  const op: JsonObject = {
    operationId: `${service.typeName}.${method.name}`,
    summary: method.name,
    description: describe(schemas, service, method, token),
    tags: [service.typeName],
    security: SECURITY[token],
  };
  if (parameters.length > 0) op.parameters = parameters;
  const body = requestBody(schemas, route, pathFields);
  if (body) op.requestBody = body;
  op.responses = {
    '200': { description: method.output.name, content: { 'application/json': { schema: schemas.message(method.output) } } },
    default: { $ref: '#/components/responses/Error' },
  };
  return op;
}

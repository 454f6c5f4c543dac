// JSON Schemas (OpenAPI 3.1's dialect, JSON Schema 2020-12) of proto messages
// in their proto3 JSON form, as the REST transcoder reads and writes them
// (src/core/json-writer.ts, src/server/rest/request-message.ts): lowerCamelCase
// (json_name) keys, int64 as strings, enums by name, well-known types in their
// JSON forms, oneof members exclusive. Written here because no maintained
// library turns protobuf-es descriptors into OpenAPI 3.1 (grpc-gateway's and
// gnostic's generators are Go protoc plugins producing Swagger 2.0 / OpenAPI 3.0).
import type { DescEnum, DescField, DescMessage, JsonObject } from '@bufbuild/protobuf';
import { getOption, hasOption, ScalarType } from '@bufbuild/protobuf';
import { field_behavior, FieldBehavior } from '../../gen/google/api/field_behavior_pb.js';
import { isCapabilityField } from '../rest/capability-json.js';
import type { ProtoComments } from './proto-comments.js';

const INT64 = new Set([ScalarType.INT64, ScalarType.UINT64, ScalarType.SINT64, ScalarType.FIXED64, ScalarType.SFIXED64]);
const UNSIGNED = new Set([ScalarType.UINT32, ScalarType.FIXED32, ScalarType.UINT64, ScalarType.FIXED64]);

/** The JSON form of the well-known types (proto3 JSON mapping), inlined wherever they appear. */
const WELL_KNOWN: Readonly<Record<string, JsonObject>> = {
  'google.protobuf.Timestamp': { type: 'string', format: 'date-time', description: 'RFC 3339, UTC' },
  'google.protobuf.Duration': { type: 'string', pattern: '^-?[0-9]+(\\.[0-9]{1,9})?s$', description: 'seconds with an "s" suffix, e.g. "3600s"' },
  'google.protobuf.FieldMask': { type: 'string', description: 'comma-separated field paths (lowerCamelCase or snake_case)' },
  'google.protobuf.Struct': { type: 'object', additionalProperties: true },
  'google.protobuf.Value': {},
  'google.protobuf.ListValue': { type: 'array', items: {} },
  'google.protobuf.Empty': { type: 'object', additionalProperties: false },
  'google.protobuf.Any': {
    type: 'object',
    properties: { '@type': { type: 'string' } },
    required: ['@type'],
    additionalProperties: true,
    description: '`@type` names the message; its fields follow in proto3 JSON',
  },
  'google.protobuf.StringValue': { type: 'string' },
  'google.protobuf.BytesValue': { type: 'string', contentEncoding: 'base64' },
  'google.protobuf.BoolValue': { type: 'boolean' },
  'google.protobuf.Int32Value': { type: 'integer', format: 'int32' },
  'google.protobuf.UInt32Value': { type: 'integer', format: 'int32', minimum: 0 },
  'google.protobuf.Int64Value': { type: 'string', format: 'int64' },
  'google.protobuf.UInt64Value': { type: 'string', format: 'int64' },
  'google.protobuf.FloatValue': { type: 'number' },
  'google.protobuf.DoubleValue': { type: 'number' },
};

export function scalarSchema(t: ScalarType): JsonObject {
  if (INT64.has(t)) return { type: 'string', format: 'int64', pattern: UNSIGNED.has(t) ? '^[0-9]+$' : '^-?[0-9]+$' };
  switch (t) {
    case ScalarType.BOOL:
      return { type: 'boolean' };
    case ScalarType.STRING:
      return { type: 'string' };
    case ScalarType.BYTES:
      return { type: 'string', contentEncoding: 'base64' };
    case ScalarType.DOUBLE:
    case ScalarType.FLOAT:
      return { type: 'number' };
    default:
      return UNSIGNED.has(t) ? { type: 'integer', format: 'int32', minimum: 0 } : { type: 'integer', format: 'int32' };
  }
}

/** The components.schemas key of a message or enum. */
export function schemaName(desc: DescMessage | DescEnum): string {
  return desc.typeName;
}

export function enumSchema(e: DescEnum, comments: ProtoComments): JsonObject {
  if (e.typeName === 'google.protobuf.NullValue') return { type: 'null' };
  const described = e.values.filter((v) => comments.has(`${e.typeName}.${v.name}`)).map((v) => `- \`${v.name}\`: ${comments.get(`${e.typeName}.${v.name}`)}`);
  const text = [comments.get(e.typeName), 'By name (a number is accepted on input).', described.join('\n')].filter((t) => t).join('\n\n');
  return { type: 'string', enum: e.values.map((v) => v.name), description: text };
}

/** Sentences joined as one description, or none. */
function joined(...parts: Array<string | undefined>): string | undefined {
  const text = parts.filter((p) => p).join('\n\n');
  return text === '' ? undefined : text;
}

/** Collects the schemas a document references, each message and enum once. */
export class SchemaSet {
  readonly schemas: Record<string, JsonObject> = {};

  /** `comments`: the protos' comments by full name, for descriptions. */
  constructor(readonly comments: ProtoComments = new Map()) {}

  /** A schema for a message: inlined for well-known types, else a $ref (the message added to the set). */
  message(desc: DescMessage): JsonObject {
    const wk = WELL_KNOWN[desc.typeName];
    if (wk) return { ...wk };
    const name = schemaName(desc);
    if (!(name in this.schemas)) {
      this.schemas[name] = {}; // placed first: recursive messages refer to themselves
      this.schemas[name] = this.messageBody(desc);
    }
    return { $ref: `#/components/schemas/${name}` };
  }

  enum(desc: DescEnum): JsonObject {
    const name = schemaName(desc);
    if (!(name in this.schemas)) this.schemas[name] = enumSchema(desc, this.comments);
    return { $ref: `#/components/schemas/${name}` };
  }

  /** The schema of one value of the field (an element for lists, a value for maps). */
  valueOf(f: DescField): JsonObject {
    const kind = f.fieldKind === 'list' ? f.listKind : f.fieldKind === 'map' ? f.mapKind : f.fieldKind;
    if (kind === 'scalar') return scalarSchema(f.scalar as ScalarType);
    if (kind === 'enum') return this.enum(f.enum as DescEnum);
    return this.message(f.message as DescMessage);
  }

  field(f: DescField): JsonObject {
    let schema: JsonObject;
    if (f.fieldKind === 'list') schema = { type: 'array', items: this.valueOf(f) };
    else if (f.fieldKind === 'map') schema = { type: 'object', additionalProperties: this.valueOf(f) };
    else schema = this.valueOf(f);
    const behaviors = hasOption(f, field_behavior) ? getOption(f, field_behavior) : [];
    // A $ref with siblings is valid in 3.1; readOnly/writeOnly tell request from response fields.
    if (behaviors.includes(FieldBehavior.OUTPUT_ONLY)) schema.readOnly = true;
    if (behaviors.includes(FieldBehavior.INPUT_ONLY)) schema.writeOnly = true;
    const description = joined(
      this.comments.get(`${f.parent.typeName}.${f.name}`),
      behaviors.includes(FieldBehavior.IMMUTABLE) ? 'Set on create only.' : undefined,
      isCapabilityField(f) ? 'REST requests may also name a capability by its friendly name (`repo.list`).' : undefined,
    );
    if (description) schema.description = description;
    return schema;
  }

  private messageBody(desc: DescMessage): JsonObject {
    const properties: JsonObject = {};
    const required: string[] = [];
    for (const f of desc.fields) {
      properties[f.jsonName] = this.field(f);
      const behaviors = hasOption(f, field_behavior) ? getOption(f, field_behavior) : [];
      if (behaviors.includes(FieldBehavior.REQUIRED)) required.push(f.jsonName);
    }
    const out: JsonObject = { type: 'object', title: desc.name, properties };
    if (required.length > 0) out.required = required;
    // A oneof's members exclude each other: each one present forbids the others.
    const dependent: JsonObject = {};
    const groups = desc.oneofs.filter((o) => o.fields.length > 1);
    for (const oneof of groups) {
      const names = oneof.fields.map((f) => f.jsonName);
      for (const n of names) dependent[n] = { not: { anyOf: names.filter((o) => o !== n).map((o) => ({ required: [o] })) } };
    }
    let oneofs: string | undefined;
    if (Object.keys(dependent).length > 0) {
      out.dependentSchemas = dependent;
      oneofs = `At most one of each group: ${groups.map((o) => o.fields.map((f) => `\`${f.jsonName}\``).join(', ')).join('; ')}.`;
    }
    const description = joined(this.comments.get(desc.typeName), oneofs);
    if (description) out.description = description;
    return out;
  }
}

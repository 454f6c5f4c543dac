// Builds an RPC request message from a REST call: the path variables, the query
// parameters (snake_case or camelCase, nested with dots, repeated by
// repetition) and the JSON body, all through protobuf-es's JSON parser so types,
// enums and well-known types are checked in one place.
import type { DescField, DescMessage, JsonObject, JsonValue, Message } from '@bufbuild/protobuf';
import { create, mergeFromJson } from '@bufbuild/protobuf';
import { ConnectError } from '@connectrpc/connect';
import { badRequest } from '../../core/request-errors.js';
import { badBody } from '../errors.js';
import { maskFromJsonKeys } from '../../core/field-mask.js';
import type { RestRoute } from './route-table.js';
import { capabilityJsonValue, isCapabilityField } from './capability-json.js';
import { queryMessageType, queryMessageValue } from './query-messages.js';

const MAX_QUERY_PARAMS = 100;

const FIELD_MASK = 'google.protobuf.FieldMask';

/**
 * AIP-161 accepts mask paths in snake_case as well as lowerCamelCase; the
 * proto3 JSON form of a FieldMask is lowerCamelCase only, so paths are turned
 * into that form before decoding ("static_keys,name" → "staticKeys,name").
 */
function camelMask(value: string): string {
  return value.replace(/_([a-z0-9])/g, (_m, c: string) => c.toUpperCase());
}

function isFieldMask(f: DescField): boolean {
  return f.fieldKind === 'message' && f.message.typeName === FIELD_MASK;
}

function fieldByKey(schema: DescMessage, key: string): DescField | undefined {
  return schema.fields.find((f) => f.name === key || f.jsonName === key);
}

/** Converts one query value to the JSON form protobuf-es expects for the field (`path` names it in errors). */
function queryValue(field: DescField, raw: string, path: string, domain: string): JsonValue {
  const scalarOrEnum = field.fieldKind === 'list' ? field.listKind : field.fieldKind;
  if (scalarOrEnum === 'enum' && /^-?\d+$/.test(raw)) return Number(raw);
  if (isCapabilityField(field)) return capabilityJsonValue(raw);
  const enumType = field.fieldKind === 'enum' || (field.fieldKind === 'list' && field.listKind === 'enum') ? field.enum : undefined;
  if (enumType && !enumType.values.some((v) => v.name === raw)) {
    // Said here, where the field's name is known: the JSON decoder's message names only the enum.
    throw badRequest(domain, [{ field: path, description: `"${raw.slice(0, 80)}" is not a value of ${enumType.typeName} (a name or a number)` }]);
  }
  if (scalarOrEnum === 'scalar') {
    const t = field.fieldKind === 'list' || field.fieldKind === 'scalar' ? field.scalar : undefined;
    if (t === 8 /* BOOL */) return raw === 'true' || raw === '1' ? true : raw === 'false' || raw === '0' ? false : raw;
  }
  return raw;
}

function queryToJson(schema: DescMessage, query: URLSearchParams, domain: string): JsonObject {
  const json: JsonObject = {};
  let n = 0;
  for (const [key, raw] of query) {
    if (++n > MAX_QUERY_PARAMS) throw badRequest(domain, [{ field: 'query', description: `at most ${MAX_QUERY_PARAMS} query parameters` }]);
    const parts = key.split('.');
    let desc: DescMessage = schema;
    let target: JsonObject = json;
    let ok = true;
    for (let i = 0; i < parts.length; i++) {
      const f = fieldByKey(desc, parts[i]);
      if (!f) {
        ok = false; // unknown parameters are ignored, as by grpc-gateway
        break;
      }
      const last = i === parts.length - 1;
      if (!last) {
        if (f.fieldKind !== 'message') {
          ok = false;
          break;
        }
        target[f.jsonName] ??= {};
        target = target[f.jsonName] as JsonObject;
        desc = f.message;
        continue;
      }
      const path = [...parts.slice(0, i), f.name].join('.');
      if (f.fieldKind === 'list' && f.listKind === 'message' && queryMessageType(f.message.typeName)) {
        let item: JsonObject;
        try {
          item = queryMessageValue(f.message.typeName, raw);
        } catch (err) {
          throw badRequest(domain, [{ field: path, description: (err as Error).message }]);
        }
        const list = (target[f.jsonName] as JsonValue[] | undefined) ?? [];
        list.push(withoutUnknownFields(f.message, item));
        target[f.jsonName] = list;
        continue;
      }
      const value = isFieldMask(f) ? camelMask(raw) : f.fieldKind === 'message' ? raw : queryValue(f, raw, path, domain);
      if (isFieldMask(f) && typeof target[f.jsonName] === 'string') {
        target[f.jsonName] = `${target[f.jsonName] as string},${value as string}`; // updateMask=a&updateMask=b
      } else if (f.fieldKind === 'list') {
        const list = (target[f.jsonName] as JsonValue[] | undefined) ?? [];
        list.push(value);
        target[f.jsonName] = list;
      } else {
        target[f.jsonName] = value;
      }
    }
    if (!ok) continue;
  }
  return json;
}

/**
 * Drops body keys that name no field (as grpc-gateway does), so the strict
 * parse after it still rejects wrong types and unknown enum values. Also puts
 * the values the strict parse would refuse but the API accepts in its form:
 * snake_case mask paths, capabilities by friendly name.
 */
function withoutUnknownFields(desc: DescMessage, json: JsonObject): JsonObject {
  const out: JsonObject = {};
  for (const [key, value] of Object.entries(json)) {
    const f = fieldByKey(desc, key);
    if (!f) continue;
    if (isFieldMask(f) && typeof value === 'string') {
      out[key] = camelMask(value);
      continue;
    }
    if (isCapabilityField(f)) {
      out[key] = Array.isArray(value) ? value.map(capabilityJsonValue) : capabilityJsonValue(value);
      continue;
    }
    const m =
      f.fieldKind === 'message' || (f.fieldKind === 'list' && f.listKind === 'message') || (f.fieldKind === 'map' && f.mapKind === 'message')
        ? f.message
        : undefined;
    if (!m || m.typeName.startsWith('google.protobuf.') || value === null || typeof value !== 'object') {
      out[key] = value;
    } else if (Array.isArray(value)) {
      out[key] =
        f.fieldKind === 'list' ? value.map((v) => (v && typeof v === 'object' && !Array.isArray(v) ? withoutUnknownFields(m, v as JsonObject) : v)) : value;
    } else if (f.fieldKind === 'map') {
      out[key] = Object.fromEntries(
        Object.entries(value).map(([k, v]) => [k, v && typeof v === 'object' && !Array.isArray(v) ? withoutUnknownFields(m, v as JsonObject) : v]),
      );
    } else {
      out[key] = withoutUnknownFields(m, value as JsonObject);
    }
  }
  return out;
}

/** Turns protobuf-es's JSON decode error into a field violation. */
function decodeError(err: unknown, domain: string, where: string) {
  const text = err instanceof Error ? err.message : String(err);
  const m = /field ([\w.]+)/.exec(text);
  const field = m ? (m[1].split('.').pop() ?? where) : where;
  return badRequest(domain, [{ field, description: text.replace(/^\[\w+\]\s*/, '').slice(0, 300) }]);
}

function setPath(schema: DescMessage, msg: Message, fieldPath: string, value: string): void {
  const parts = fieldPath.split('.');
  let desc = schema;
  let target = msg as unknown as Record<string, unknown>;
  for (let i = 0; i < parts.length; i++) {
    const f = desc.fields.find((x) => x.name === parts[i]);
    if (!f) throw new Error(`path variable ${fieldPath} does not name a field of ${schema.typeName}`);
    if (i === parts.length - 1) {
      target[f.localName] = value;
    } else {
      if (f.fieldKind !== 'message') throw new Error(`path variable ${fieldPath} crosses a non-message field`);
      target[f.localName] ??= create(f.message);
      target = target[f.localName] as Record<string, unknown>;
      desc = f.message;
    }
  }
}

/**
 * The JSON body: an object, or an array where the rule's body is a repeated
 * field (v1 `POST /iam/v1/rolebindings/batch/{parent}` sends its bindings as
 * the body, as grpc-gateway maps a `body: "role_bindings"` rule).
 */
export function parseJsonBody(raw: Buffer | string | undefined, domain: string): JsonObject | JsonValue[] | undefined {
  const text = raw === undefined ? '' : typeof raw === 'string' ? raw : raw.toString('utf8');
  if (text.trim() === '') return undefined;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    throw badBody(domain, `malformed JSON: ${(err as Error).message.slice(0, 200)}`);
  }
  if (value === null || typeof value !== 'object') throw badBody(domain, 'the body must be a JSON object');
  return value as JsonObject | JsonValue[];
}

export function buildRequest(
  route: RestRoute,
  variables: Record<string, string>,
  query: URLSearchParams,
  jsonBody: JsonObject | JsonValue[] | undefined,
  domain: string,
): Message {
  const schema = route.method.input;
  const listField = schema.fields.find((x) => x.name === route.body && x.fieldKind === 'list');
  if (Array.isArray(jsonBody) !== (listField !== undefined && jsonBody !== undefined)) {
    throw badBody(domain, listField ? 'the body must be a JSON array' : 'the body must be a JSON object');
  }
  if (listField) return listBodyRequest(route, variables, query, listField, jsonBody as JsonValue[] | undefined, domain);
  const body = jsonBody as JsonObject | undefined;
  const msg = create(schema);
  const opts = { ignoreUnknownFields: false };
  if (route.body === '*') {
    if (body) {
      try {
        mergeFromJson(schema, msg, withoutUnknownFields(schema, body), opts);
      } catch (err) {
        throw decodeError(err, domain, 'body');
      }
    }
  } else {
    try {
      mergeFromJson(schema, msg, queryToJson(schema, query, domain), opts);
    } catch (err) {
      // queryToJson's own errors already name their field.
      if (err instanceof ConnectError) throw err;
      throw decodeError(err, domain, 'query');
    }
    if (route.body !== '') {
      const f = schema.fields.find((x) => x.name === route.body);
      if (f?.fieldKind !== 'message') throw new Error(`body field ${route.body} of ${schema.typeName} is not a message`);
      const inner = create(f.message);
      if (body) {
        try {
          mergeFromJson(f.message, inner, withoutUnknownFields(f.message, body), opts);
        } catch (err) {
          throw decodeError(err, domain, route.body);
        }
      }
      (msg as unknown as Record<string, unknown>)[f.localName] = inner;
      // PATCH without update_mask: the keys present in the body are the mask.
      const maskField = schema.fields.find((x) => x.name === 'update_mask');
      const record = msg as unknown as Record<string, unknown>;
      if (route.httpMethod === 'PATCH' && maskField && !record[maskField.localName]) {
        record[maskField.localName] = maskFromJsonKeys(f.message, body ?? {});
      }
    }
  }
  for (const [fieldPath, value] of Object.entries(variables)) setPath(schema, msg, fieldPath, value);
  return msg;
}

/** A request whose body is one repeated field: the array is that field, the rest come from the path and query. */
function listBodyRequest(
  route: RestRoute,
  variables: Record<string, string>,
  query: URLSearchParams,
  field: DescField,
  body: JsonValue[] | undefined,
  domain: string,
): Message {
  const schema = route.method.input;
  const msg = create(schema);
  const opts = { ignoreUnknownFields: false };
  try {
    mergeFromJson(schema, msg, queryToJson(schema, query, domain), opts);
  } catch (err) {
    if (err instanceof ConnectError) throw err;
    throw decodeError(err, domain, 'query');
  }
  try {
    mergeFromJson(schema, msg, withoutUnknownFields(schema, { [field.jsonName]: body ?? [] }), opts);
  } catch (err) {
    throw decodeError(err, domain, field.name);
  }
  for (const [fieldPath, value] of Object.entries(variables)) setPath(schema, msg, fieldPath, value);
  return msg;
}

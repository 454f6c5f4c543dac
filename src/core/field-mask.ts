// PATCH semantics for every updatable resource: an explicit update_mask names
// the fields to change ("*" = every writable field); without one, the fields
// the caller sent change (REST: the keys of the body; gRPC: the fields set).
import type { DescField, DescMessage, Message } from '@bufbuild/protobuf';
import { clone } from '@bufbuild/protobuf';
import { reflect } from '@bufbuild/protobuf/reflect';
import type { FieldMask } from '@bufbuild/protobuf/wkt';
import { field_behavior, FieldBehavior } from '../gen/google/api/field_behavior_pb.js';
import { getOption, hasOption } from '@bufbuild/protobuf';
import { badUpdateMask } from './request-errors.js';

export function isOutputOnly(field: DescField): boolean {
  return hasOption(field, field_behavior) && getOption(field, field_behavior).includes(FieldBehavior.OUTPUT_ONLY);
}

function findField(schema: DescMessage, path: string): DescField | undefined {
  return schema.fields.find((f) => f.name === path || f.jsonName === path);
}

/**
 * The top-level fields an update changes. Unknown paths are INVALID_ARGUMENT;
 * output-only fields never change.
 */
export function fieldsToUpdate<T extends Message>(schema: DescMessage, incoming: T, mask: FieldMask | undefined, domain: string): DescField[] {
  const writable = (f: DescField) => !isOutputOnly(f);
  if (!mask || mask.paths.length === 0) {
    const r = reflect(schema, incoming);
    return schema.fields.filter((f) => writable(f) && r.isSet(f));
  }
  if (mask.paths.includes('*')) {
    if (mask.paths.length > 1) {
      throw badUpdateMask(domain, '"*" cannot be combined with other paths');
    }
    return schema.fields.filter(writable);
  }
  const out: DescField[] = [];
  const bad: string[] = [];
  for (const path of mask.paths) {
    const f = findField(schema, path);
    if (!f) bad.push(path);
    else if (writable(f) && !out.includes(f)) out.push(f);
  }
  if (bad.length > 0) {
    const names = schema.fields
      .filter(writable)
      .map((f) => f.name)
      .join(', ');
    throw badUpdateMask(domain, `unknown field path ${bad.map((b) => `"${b.slice(0, 64)}"`).join(', ')}; updatable: ${names}`);
  }
  return out;
}

/** `existing` with the listed fields taken from `incoming` (absent there = cleared). */
export function applyFields<T extends Message>(schema: DescMessage, existing: T, incoming: T, fields: DescField[]): T {
  const result = clone(schema, existing) as T;
  const dst = reflect(schema, result);
  const src = reflect(schema, incoming);
  for (const f of fields) {
    if (src.isSet(f)) dst.set(f, src.get(f) as never);
    else dst.clear(f);
  }
  return result;
}

/** Top-level field names present as keys of a JSON object body (REST PATCH without a mask). */
export function maskFromJsonKeys(schema: DescMessage, body: Record<string, unknown>): FieldMask {
  const paths: string[] = [];
  for (const key of Object.keys(body)) {
    const f = findField(schema, key);
    if (f) paths.push(f.name);
  }
  return { $typeName: 'google.protobuf.FieldMask', paths } as FieldMask;
}

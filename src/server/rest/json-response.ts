// Response JSON: proto3 JSON with zero values emitted (as grpc-gateway does),
// int64 as strings, enum names, and every timestamp with exactly three
// fractional digits and "Z".
import type { DescMessage, JsonObject, JsonValue, Message } from '@bufbuild/protobuf';
import { getOption, hasOption, toJson, type DescField } from '@bufbuild/protobuf';
import { field_behavior, FieldBehavior } from '../../gen/google/api/field_behavior_pb.js';

function millis(ts: string): string {
  const d = new Date(ts);
  return Number.isNaN(d.getTime()) ? ts : d.toISOString();
}

function inputOnly(f: DescField): boolean {
  return hasOption(f, field_behavior) && getOption(f, field_behavior).includes(FieldBehavior.INPUT_ONLY);
}

function normalize(desc: DescMessage, json: JsonObject): void {
  for (const f of desc.fields) {
    if (inputOnly(f)) {
      delete json[f.jsonName]; // request-only fields (e.g. identityUid) are never echoed
      continue;
    }
    const v = json[f.jsonName];
    if (v === undefined || v === null) continue;
    const msg = f.fieldKind === 'message' ? f.message : f.fieldKind === 'list' && f.listKind === 'message' ? f.message : f.fieldKind === 'map' && f.mapKind === 'message' ? f.message : undefined;
    if (!msg) continue;
    const fix = (x: JsonValue): JsonValue => {
      if (msg.typeName === 'google.protobuf.Timestamp' && typeof x === 'string') return millis(x);
      if (x && typeof x === 'object' && !Array.isArray(x) && !msg.typeName.startsWith('google.protobuf.')) normalize(msg, x);
      return x;
    };
    if (f.fieldKind === 'list' && Array.isArray(v)) json[f.jsonName] = v.map(fix);
    else if (f.fieldKind === 'map' && typeof v === 'object' && !Array.isArray(v)) {
      for (const k of Object.keys(v)) (v as JsonObject)[k] = fix((v as JsonObject)[k]);
    } else json[f.jsonName] = fix(v);
  }
}

export function messageToJson(desc: DescMessage, msg: Message): JsonObject {
  const json = toJson(desc, msg, { alwaysEmitImplicit: true }) as JsonObject;
  normalize(desc, json);
  return json;
}

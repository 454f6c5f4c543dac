// Response JSON: proto3 JSON with zero values emitted (as grpc-gateway does),
// int64 as strings, enum names, every timestamp with exactly three fractional
// digits and "Z", and request-only fields (INPUT_ONLY) left out. What to fix up
// is worked out once per message type, not per response.
import type { DescField, DescMessage, JsonObject, JsonValue, Message } from '@bufbuild/protobuf';
import { getOption, hasOption, toJson } from '@bufbuild/protobuf';
import { field_behavior, FieldBehavior } from '../../gen/google/api/field_behavior_pb.js';

interface Fixups {
  drop: string[];
  timestamps: string[];
  nested: Array<{ jsonName: string; desc: DescMessage; kind: 'one' | 'list' | 'map' }>;
}

const plans = new WeakMap<DescMessage, Fixups>();

function messageOf(f: DescField): DescMessage | undefined {
  if (f.fieldKind === 'message') return f.message;
  if (f.fieldKind === 'list' && f.listKind === 'message') return f.message;
  if (f.fieldKind === 'map' && f.mapKind === 'message') return f.message;
  return undefined;
}

function planFor(desc: DescMessage): Fixups {
  let plan = plans.get(desc);
  if (plan) return plan;
  plan = { drop: [], timestamps: [], nested: [] };
  plans.set(desc, plan); // before recursing: messages may be recursive
  for (const f of desc.fields) {
    if (hasOption(f, field_behavior) && getOption(f, field_behavior).includes(FieldBehavior.INPUT_ONLY)) {
      plan.drop.push(f.jsonName);
      continue;
    }
    const m = messageOf(f);
    if (!m) continue;
    if (m.typeName === 'google.protobuf.Timestamp' && f.fieldKind === 'message') plan.timestamps.push(f.jsonName);
    else if (!m.typeName.startsWith('google.protobuf.')) {
      plan.nested.push({ jsonName: f.jsonName, desc: m, kind: f.fieldKind === 'list' ? 'list' : f.fieldKind === 'map' ? 'map' : 'one' });
    }
  }
  return plan;
}

const THREE_DIGITS = /\.\d{3}Z$/;

function millis(ts: JsonValue): JsonValue {
  if (typeof ts !== 'string' || THREE_DIGITS.test(ts)) return ts;
  const d = new Date(ts);
  return Number.isNaN(d.getTime()) ? ts : d.toISOString();
}

function fix(desc: DescMessage, json: JsonObject): void {
  const plan = planFor(desc);
  for (const k of plan.drop) delete json[k];
  for (const k of plan.timestamps) if (json[k] !== undefined) json[k] = millis(json[k]);
  for (const n of plan.nested) {
    const v = json[n.jsonName];
    if (v === undefined || v === null) continue;
    if (n.kind === 'list' && Array.isArray(v)) for (const x of v) fix(n.desc, x as JsonObject);
    else if (n.kind === 'map') for (const x of Object.values(v as JsonObject)) fix(n.desc, x as JsonObject);
    else fix(n.desc, v as JsonObject);
  }
}

export function messageToJson(desc: DescMessage, msg: Message): JsonObject {
  const json = toJson(desc, msg, { alwaysEmitImplicit: true }) as JsonObject;
  fix(desc, json);
  return json;
}

// Proto3 JSON for responses, compiled once per message type: the generic
// toJson plus a fix-up pass was a large share of a list request
// (docs/performance.md). Same output rules:
// zero values of implicit-presence fields emitted (as grpc-gateway does), unset
// explicit-presence and oneof fields left out, int64 as strings, enum names,
// timestamps with exactly three fractional digits, INPUT_ONLY fields never
// echoed. Well-known types other than Timestamp go through protobuf-es.
import type { DescField, DescMessage, JsonObject, JsonValue, Message } from '@bufbuild/protobuf';
import { getOption, hasOption, ScalarType, toJson } from '@bufbuild/protobuf';
import { FeatureSet_FieldPresence, type Timestamp } from '@bufbuild/protobuf/wkt';
import { field_behavior, FieldBehavior } from '../gen/google/api/field_behavior_pb.js';
import { timestampText } from './clock.js';

type Writer = (msg: Record<string, unknown>) => JsonObject;
const writers = new WeakMap<DescMessage, Writer>();

const INT64 = new Set([ScalarType.INT64, ScalarType.UINT64, ScalarType.SINT64, ScalarType.FIXED64, ScalarType.SFIXED64]);

function scalarJson(type: ScalarType, v: unknown): JsonValue {
  if (INT64.has(type)) return String(v);
  if (type === ScalarType.BYTES) return Buffer.from(v as Uint8Array).toString('base64');
  if ((type === ScalarType.FLOAT || type === ScalarType.DOUBLE) && !Number.isFinite(v as number)) {
    return Number.isNaN(v) ? 'NaN' : (v as number) > 0 ? 'Infinity' : '-Infinity';
  }
  return v as JsonValue;
}

function valueWriter(f: DescField): (v: unknown) => JsonValue {
  const kind = f.fieldKind === 'list' ? f.listKind : f.fieldKind === 'map' ? f.mapKind : f.fieldKind;
  if (kind === 'scalar') {
    const t = f.scalar as ScalarType;
    return (v) => scalarJson(t, v);
  }
  if (kind === 'enum') {
    const names = new Map(f.enum!.values.map((e) => [e.number, e.name]));
    return (v) => names.get(v as number) ?? (v as number);
  }
  const m = f.message!;
  if (m.typeName === 'google.protobuf.Timestamp') return (v) => timestampText(v as Timestamp);
  if (m.typeName.startsWith('google.protobuf.')) return (v) => toJson(m, v as Message);
  return (v) => writerFor(m)(v as Record<string, unknown>);
}

/** The zero value of an implicit-presence singular field (for plain-object results). */
function zeroOf(f: DescField): unknown {
  if (f.fieldKind === 'enum') return 0;
  if (f.fieldKind !== 'scalar') return undefined;
  if (f.scalar === ScalarType.STRING) return '';
  if (f.scalar === ScalarType.BOOL) return false;
  if (f.scalar === ScalarType.BYTES) return new Uint8Array(0);
  return INT64.has(f.scalar) ? 0n : 0;
}

function writerFor(desc: DescMessage): Writer {
  const existing = writers.get(desc);
  if (existing) return existing;
  const steps: Array<(msg: Record<string, unknown>, out: JsonObject) => void> = [];
  const writer: Writer = (msg) => {
    const out: JsonObject = {};
    for (const step of steps) step(msg, out);
    return out;
  };
  writers.set(desc, writer); // before compiling fields: types may be recursive
  for (const f of desc.fields) {
    if (hasOption(f, field_behavior) && getOption(f, field_behavior).includes(FieldBehavior.INPUT_ONLY)) continue;
    const write = valueWriter(f);
    const key = f.jsonName;
    if (f.oneof) {
      const oneof = f.oneof.localName;
      steps.push((msg, out) => {
        const o = msg[oneof] as { case?: string; value?: unknown } | undefined;
        if (o?.case === f.localName) out[key] = write(o.value);
      });
    } else if (f.fieldKind === 'list') {
      steps.push((msg, out) => {
        out[key] = ((msg[f.localName] as unknown[]) ?? []).map(write);
      });
    } else if (f.fieldKind === 'map') {
      steps.push((msg, out) => {
        const m: JsonObject = {};
        for (const [k, v] of Object.entries((msg[f.localName] as Record<string, unknown>) ?? {})) m[k] = write(v);
        out[key] = m;
      });
    } else if (f.fieldKind === 'message' || f.presence === FeatureSet_FieldPresence.EXPLICIT) {
      steps.push((msg, out) => {
        const v = msg[f.localName];
        if (v !== undefined && v !== null) out[key] = write(v);
      });
    } else {
      const zero = zeroOf(f);
      steps.push((msg, out) => {
        out[key] = write(msg[f.localName] ?? zero);
      });
    }
  }
  return writer;
}

export function messageToJson(desc: DescMessage, msg: Message): JsonObject {
  return writerFor(desc)(msg as unknown as Record<string, unknown>);
}

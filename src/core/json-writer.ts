// Proto3 JSON for responses, compiled once per message type: the generic
// toJson plus a fix-up pass was a large share of a list request
// (docs/performance.md). Same output rules:
// zero values of implicit-presence fields emitted (as grpc-gateway does), unset
// explicit-presence and oneof fields left out, int64 as strings, enum names,
// timestamps with exactly three fractional digits, INPUT_ONLY fields never
// echoed. Well-known types other than Timestamp go through protobuf-es.
// Takes messages or their plain init objects alike (absent fields read as zero).
//
// Each message type's writer is one generated function (new Function) that
// builds its object as a literal with constant property names: a loop of
// per-field closures storing by computed key shared its load, store and call
// sites across every message type, which made them megamorphic. The generated
// code is ours, from the descriptors; every name in it goes through JSON.stringify.
import type { DescField, DescMessage, JsonObject, JsonValue, Message, MessageInitShape } from '@bufbuild/protobuf';
import { create, getOption, hasOption, ScalarType, toJson } from '@bufbuild/protobuf';
import { FeatureSet_FieldPresence, type Timestamp } from '@bufbuild/protobuf/wkt';
import { field_behavior, FieldBehavior } from '../gen/google/api/field_behavior_pb.js';
import { timestampText } from './clock.js';

type Writer = (msg: Record<string, unknown>) => JsonObject;
type ValueWriter = (v: unknown) => JsonValue;
const writers = new WeakMap<DescMessage, Writer>();

const INT64 = new Set([ScalarType.INT64, ScalarType.UINT64, ScalarType.SINT64, ScalarType.FIXED64, ScalarType.SFIXED64]);

function floatJson(v: unknown): JsonValue {
  if (Number.isFinite(v)) return v as number;
  return Number.isNaN(v) ? 'NaN' : (v as number) > 0 ? 'Infinity' : '-Infinity';
}

/** How a value of the field's element kind becomes JSON; undefined when it is its own JSON (strings, bools, 32-bit integers). */
function valueWriter(f: DescField): ValueWriter | undefined {
  const kind = f.fieldKind === 'list' ? f.listKind : f.fieldKind === 'map' ? f.mapKind : f.fieldKind;
  if (kind === 'scalar') {
    const t = f.scalar as ScalarType;
    if (INT64.has(t)) return String;
    if (t === ScalarType.BYTES) return (v) => Buffer.from(v as Uint8Array).toString('base64');
    if (t === ScalarType.FLOAT || t === ScalarType.DOUBLE) return floatJson;
    return undefined;
  }
  if (kind === 'enum') {
    const names = new Map(f.enum!.values.map((e) => [e.number, e.name]));
    return (v) => names.get(v as number) ?? (v as number);
  }
  const m = f.message!;
  if (m.typeName === 'google.protobuf.Timestamp') return (v) => timestampText(v as Timestamp);
  if (m.typeName.startsWith('google.protobuf.')) return (v) => toJson(m, create(m, v as never));
  let w: Writer | undefined; // resolved at first use: types may be recursive
  return (v) => {
    w ??= writerFor(m);
    return w(v as Record<string, unknown>);
  };
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
  let writer = writers.get(desc);
  if (!writer) {
    writer = compileWriter(desc);
    writers.set(desc, writer);
  }
  return writer;
}

function compileWriter(desc: DescMessage): Writer {
  const helpers: unknown[] = [];
  const helper = (value: unknown) => `h[${helpers.push(value) - 1}]`;
  // Fields keep their declaration order: the literal holds the leading
  // unconditional ones, statements (in order) the rest from the first conditional one on.
  const literal: string[] = [];
  const statements: string[] = [];
  const always = (key: string, expr: string) => (statements.length === 0 ? literal.push(`${key}: ${expr}`) : statements.push(`out[${key}] = ${expr};`));
  for (const f of desc.fields) {
    if (hasOption(f, field_behavior) && getOption(f, field_behavior).includes(FieldBehavior.INPUT_ONLY)) continue;
    const vw = valueWriter(f);
    const write = vw ? helper(vw) : undefined;
    const apply = (expr: string) => (write ? `${write}(${expr})` : expr);
    const key = JSON.stringify(f.jsonName);
    const field = `msg[${JSON.stringify(f.localName)}]`;
    if (f.oneof) {
      const o = `msg[${JSON.stringify(f.oneof.localName)}]`;
      statements.push(`if (${o} != null && ${o}.case === ${JSON.stringify(f.localName)}) out[${key}] = ${apply(`${o}.value`)};`);
    } else if (f.fieldKind === 'list') {
      always(key, write ? `(${field} ?? []).map(${write})` : `(${field} ?? []).slice()`);
    } else if (f.fieldKind === 'map') {
      always(key, `${helper(mapWriter(vw))}(${field})`);
    } else if (f.fieldKind === 'message' || f.presence === FeatureSet_FieldPresence.EXPLICIT) {
      statements.push(`if (${field} != null) out[${key}] = ${apply(field)};`);
    } else {
      always(key, apply(`(${field} ?? ${helper(zeroOf(f))})`));
    }
  }
  const body = `return function write(msg) { const out = { ${literal.join(', ')} }; ${statements.join(' ')} return out; };`;
  return new Function('h', body)(helpers) as Writer;
}

function mapWriter(write: ValueWriter | undefined): (v: unknown) => JsonObject {
  return (v) => {
    const m: JsonObject = {};
    for (const [k, e] of Object.entries((v as Record<string, unknown>) ?? {})) m[k] = write ? write(e) : (e as JsonValue);
    return m;
  };
}

/** Proto3 JSON of a message of `desc`, or of its init object (no need to create() it first). */
export function messageToJson<D extends DescMessage>(desc: D, msg: Message | MessageInitShape<D>): JsonObject {
  return writerFor(desc)(msg as unknown as Record<string, unknown>);
}

// Request messages made from their descriptors: JSON with wrong types, odd
// values and unknown keys for REST and Connect, and well-typed messages with
// odd values for the typed gRPC client.
import type { DescEnum, DescField, DescMessage, JsonObject, JsonValue } from '@bufbuild/protobuf';
import { ScalarType } from '@bufbuild/protobuf';
import type { Random } from './random.js';

const MAX_DEPTH = 3;
const UID_FIELD = /uid|parent|^(identity|group|role)$/i;

export class Messages {
  constructor(
    private readonly r: Random,
    /** Uids of resources that exist, so some requests reach real rows. */
    private readonly known: () => readonly string[],
  ) {}

  /** A uid: one that exists, one well-formed that does not, or a malformed one. */
  uid(): string {
    const r = this.r;
    switch (r.int(0, 9)) {
      case 0:
      case 1:
      case 2:
      case 3:
        return r.pick(this.known());
      case 4:
        return `${r.pick(this.known())}/${r.hex(16)}`;
      case 5:
        return [r.hex(40), ...Array.from({ length: r.int(0, 3) }, () => r.hex(16))].join('/');
      case 6:
        return r.hex(40).toUpperCase();
      case 7:
        return `${r.hex(40)}${'/'.repeat(r.int(1, 3))}${r.hex(r.int(0, 20))}`;
      case 8:
        return [r.hex(40), ...Array.from({ length: r.int(20, 300) }, () => r.hex(16))].join('/');
      default:
        return r.weirdString();
    }
  }

  /**
   * JSON for a message, usually an object, sometimes not. A tame message has
   * the right shape and plausible values but for the odd string, so that it
   * gets past validation to the store.
   */
  json(desc: DescMessage, depth = 0, tame = false): JsonValue {
    const r = this.r;
    if (!tame && r.chance(0.04)) return this.anyJson(depth);
    const out: JsonObject = {};
    for (const f of desc.fields) {
      if (!r.chance(tame ? 0.7 : 0.5)) continue;
      out[r.chance(0.85) ? f.jsonName : f.name] = tame ? this.tameField(f, depth) : this.jsonField(f, depth);
    }
    if (!tame && r.chance(0.1)) out[r.weirdString().slice(0, 40) || 'x'] = this.anyJson(depth + 1);
    return out;
  }

  private tameField(f: DescField, depth: number): JsonValue {
    const r = this.r;
    const one = (): JsonValue => {
      if (f.message) {
        if (f.message.typeName === 'google.protobuf.Timestamp') return '2026-01-28T12:54:21.189Z';
        if (f.message.typeName === 'google.protobuf.FieldMask') return r.pick(['name', 'description', '*']);
        return depth >= MAX_DEPTH ? {} : this.json(f.message, depth + 1, true);
      }
      if (f.enum) return r.pick(f.enum.values).name;
      switch (f.scalar) {
        case ScalarType.STRING:
          return r.chance(0.25) ? r.weirdString() : UID_FIELD.test(f.name) ? r.pick(this.known()) : `fz-${r.hex(8)}`;
        case ScalarType.BOOL:
          return r.chance(0.5);
        case ScalarType.BYTES:
          return 'AAEC';
        default:
          return r.int(0, 20);
      }
    };
    if (f.fieldKind === 'list') return Array.from({ length: r.int(0, 2) }, one);
    if (f.fieldKind === 'map') return r.chance(0.5) ? {} : { [r.chance(0.3) ? r.weirdString().slice(0, 50) : 'k']: one() };
    return one();
  }

  private jsonField(f: DescField, depth: number): JsonValue {
    const r = this.r;
    switch (f.fieldKind) {
      case 'list': {
        if (r.chance(0.1)) return this.anyJson(depth + 1);
        const n = r.chance(0.05) ? r.int(100, 2000) : r.int(0, 3);
        return Array.from({ length: n }, () => this.jsonSingle(f.listKind === 'message' ? f.message : f.listKind === 'enum' ? f.enum : f.scalar, f, depth));
      }
      case 'map': {
        if (r.chance(0.1)) return this.anyJson(depth + 1);
        const out: JsonObject = {};
        for (let i = r.int(0, 3); i > 0; i--)
          out[r.weirdString().slice(0, 100)] = this.jsonSingle(f.mapKind === 'message' ? f.message : f.mapKind === 'enum' ? f.enum : f.scalar, f, depth);
        return out;
      }
      case 'message':
        return this.jsonSingle(f.message, f, depth);
      case 'enum':
        return this.jsonSingle(f.enum, f, depth);
      default:
        return this.jsonSingle(f.scalar, f, depth);
    }
  }

  private jsonSingle(type: ScalarType | DescMessage | DescEnum, f: DescField, depth: number): JsonValue {
    const r = this.r;
    if (r.chance(0.12)) return this.anyJson(depth + 1);
    if (typeof type === 'number') {
      switch (type) {
        case ScalarType.STRING:
          return UID_FIELD.test(f.name) && r.chance(0.7) ? this.uid() : r.weirdString();
        case ScalarType.BOOL:
          return r.pick<JsonValue>([true, false, 'true', 1]);
        case ScalarType.BYTES:
          return r.pick(['', 'AAEC', 'not base64!', Buffer.from(r.bytes(r.int(0, 64))).toString('base64')]);
        default:
          return r.weirdNumber();
      }
    }
    if (type.kind === 'enum') return r.pick<JsonValue>([...type.values.map((v) => v.name), 0, 99, -1, 'NOPE', '']);
    switch (type.typeName) {
      case 'google.protobuf.Timestamp':
        return r.pick([
          '2026-01-28T12:54:21.189Z',
          '1970-01-01T00:00:00Z',
          '0001-01-01T00:00:00Z',
          '9999-12-31T23:59:59Z',
          '10000-01-01T00:00:00Z',
          'yesterday',
          '',
          '2026-02-30T00:00:00Z',
        ]);
      case 'google.protobuf.FieldMask':
        return r.pick(['', '*', 'name', 'name,description', 'description', 'nope', 'a..b', ',', 'name,*', r.weirdString()]);
      case 'google.protobuf.Duration':
        return r.pick(['1s', '-1s', '315576000001s', 'x']);
      default:
        return depth >= MAX_DEPTH ? {} : this.json(type, depth + 1);
    }
  }

  /** Any JSON at all: the wrong type for whatever field it lands in. */
  anyJson(depth = 0): JsonValue {
    const r = this.r;
    switch (r.int(0, 6)) {
      case 0:
        return null;
      case 1:
        return r.weirdString();
      case 2:
        return typeof r.weirdNumber() === 'number' ? (r.weirdNumber() as number) : 7;
      case 3:
        return r.chance(0.5);
      case 4:
        return depth > MAX_DEPTH ? [] : [this.anyJson(depth + 1), this.anyJson(depth + 1)];
      case 5:
        return depth > MAX_DEPTH ? {} : { [r.weirdString().slice(0, 20)]: this.anyJson(depth + 1) };
      default:
        return nested(r.int(20, 300), r.chance(0.5));
    }
  }

  /** A well-typed message init (for create()) whose values are odd. */
  typed(desc: DescMessage, depth = 0): Record<string, unknown> {
    const r = this.r;
    const out: Record<string, unknown> = {};
    for (const m of desc.members) {
      if (!r.chance(0.6)) continue;
      if (m.kind === 'oneof') {
        const f = r.pick(m.fields);
        out[m.localName] = { case: f.localName, value: this.typedSingle(f, depth) };
        continue;
      }
      if (m.fieldKind === 'list') out[m.localName] = Array.from({ length: r.int(0, 3) }, () => this.typedSingle(m, depth));
      else if (m.fieldKind === 'map')
        out[m.localName] = Object.fromEntries(Array.from({ length: r.int(0, 2) }, () => [this.typedMapKey(m.mapKey), this.typedSingle(m, depth)]));
      else out[m.localName] = this.typedSingle(m, depth);
    }
    return out;
  }

  /** A map key of the key's type, as protobuf-es spells keys (text; numbers in decimal). */
  private typedMapKey(key: ScalarType): string {
    const r = this.r;
    if (key === ScalarType.STRING) return r.weirdString().slice(0, 50);
    if (key === ScalarType.BOOL) return r.pick(['true', 'false']);
    return r.pick(['0', '-1', '1', '201', '9223372036854775807', '-9223372036854775808']);
  }

  private typedSingle(f: DescField, depth: number): unknown {
    const r = this.r;
    const message =
      f.fieldKind === 'message'
        ? f.message
        : f.fieldKind === 'list' && f.listKind === 'message'
          ? f.message
          : f.fieldKind === 'map' && f.mapKind === 'message'
            ? f.message
            : undefined;
    if (message) {
      if (message.typeName === 'google.protobuf.Timestamp')
        return { seconds: BigInt(r.pick([0, -62135596801, 253402300800, 1_800_000_000, -1])), nanos: r.pick([0, 999_999_999, 1_000_000_000, -1]) };
      if (message.typeName === 'google.protobuf.FieldMask')
        return { paths: Array.from({ length: r.int(0, 3) }, () => r.pick(['name', 'description', '*', '', 'nope', r.weirdString()])) };
      return depth >= MAX_DEPTH ? {} : this.typed(message, depth + 1);
    }
    const en = f.fieldKind === 'enum' ? f.enum : f.fieldKind === 'list' && f.listKind === 'enum' ? f.enum : undefined;
    if (en) return r.chance(0.7) ? r.pick(en.values).number : r.pick([99, -1, 2 ** 31 - 1]);
    const scalar =
      f.fieldKind === 'scalar'
        ? f.scalar
        : f.fieldKind === 'list' && f.listKind === 'scalar'
          ? f.scalar
          : f.fieldKind === 'map' && f.mapKind === 'scalar'
            ? f.scalar
            : ScalarType.STRING;
    switch (scalar) {
      case ScalarType.STRING:
        return UID_FIELD.test(f.name) && r.chance(0.7) ? this.uid() : r.weirdString();
      case ScalarType.BOOL:
        return r.chance(0.5);
      case ScalarType.BYTES:
        return r.bytes(r.int(0, 32));
      case ScalarType.DOUBLE:
      case ScalarType.FLOAT:
        return r.pick([0, -1, 1.5, NaN, Infinity, -Infinity, 1e308]);
      case ScalarType.INT64:
      case ScalarType.SINT64:
      case ScalarType.SFIXED64:
        return r.pick([0n, -1n, 2n ** 63n - 1n, -(2n ** 63n), 201n]);
      case ScalarType.UINT64:
      case ScalarType.FIXED64:
        return r.pick([0n, 1n, 2n ** 64n - 1n]);
      case ScalarType.UINT32:
      case ScalarType.FIXED32:
        return r.pick([0, 1, 2 ** 32 - 1]);
      default:
        return r.pick([0, -1, 1, 200, 201, 2 ** 31 - 1, -(2 ** 31)]);
    }
  }
}

/** Arrays or objects nested depth deep (deeper ones are sent as text: see deepJson). */
function nested(depth: number, arrays: boolean): JsonValue {
  let v: JsonValue = 1;
  for (let i = 0; i < depth; i++) v = arrays ? [v] : { a: v };
  return v;
}

/** JSON text nested far deeper than any message: a stack-depth test for the reader. */
export function deepJson(r: Random): string {
  const n = r.int(2_000, 20_000);
  return r.chance(0.5) ? `${'['.repeat(n)}${']'.repeat(n)}` : `{"name":"x","a":${'{"a":'.repeat(n)}1${'}'.repeat(n + 1)}`;
}

// Timestamps are stored as RFC 3339 UTC strings with exactly three fractional
// digits: they sort as text on every database and print as the API shows them.
import { timestampMs, type Timestamp } from '@bufbuild/protobuf/wkt';

export function nowIso(): string {
  return new Date().toISOString();
}

/**
 * A google.protobuf.Timestamp read from the database. It keeps its text, which
 * is what a JSON response writes, and works out seconds and nanos only when
 * something reads them (binary encodings, comparisons): building a Timestamp
 * per column eagerly (a Date.parse, a BigInt, a create() and a WeakMap entry
 * to remember the text) was a visible share of a listed page's CPU time
 * (docs/performance.md).
 */
class StoredTimestamp {
  readonly $typeName = 'google.protobuf.Timestamp' as const;
  // Declared, not initialized: they are added on first read, so building one
  // sets two properties.
  private declare secondsValue: bigint | undefined;
  private declare nanosValue: number;
  /** Set once seconds or nanos are assigned: the text no longer holds. */
  declare edited: boolean | undefined;

  constructor(readonly text: string) {}

  private parse(): void {
    const ms = Date.parse(this.text);
    const s = Math.floor(ms / 1000);
    this.secondsValue = BigInt(s);
    this.nanosValue = (ms - s * 1000) * 1_000_000;
  }

  get seconds(): bigint {
    if (this.secondsValue === undefined) this.parse();
    return this.secondsValue!;
  }

  set seconds(v: bigint) {
    if (this.secondsValue === undefined) this.parse();
    this.secondsValue = v;
    this.edited = true;
  }

  get nanos(): number {
    if (this.secondsValue === undefined) this.parse();
    return this.nanosValue;
  }

  set nanos(v: number) {
    if (this.secondsValue === undefined) this.parse();
    this.nanosValue = v;
    this.edited = true;
  }
}

// seconds/nanos are accessors on the prototype; protobuf-es reads message
// fields by property access, so they encode as plain fields do.
export function isoToTimestamp(iso: string): Timestamp {
  return new StoredTimestamp(iso) as unknown as Timestamp;
}

/** RFC 3339 with exactly three fractional digits and "Z". */
export function timestampText(ts: Timestamp): string {
  return ts instanceof StoredTimestamp && !ts.edited ? ts.text : timestampToIso(ts);
}

export function timestampToIso(ts: Timestamp): string {
  return new Date(timestampMs(ts)).toISOString();
}

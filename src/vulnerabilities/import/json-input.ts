// Bytes → JSON for the JSON advisory formats (OSV, secdb, OpenVEX), refusing
// what no feed publishes and what would cost us: invalid UTF-8, a syntax
// error (with its line), nesting deep enough to exhaust the stack, NUL in a
// string or key, an oversized string. Plus small typed field readers that
// turn a wrong shape into an ImportError naming the field.
import { jsonErrorOffset, lineAt } from './json-error-position.js';
import { MAX_NESTING, tooDeep } from './nesting-limit.js';
import { MAX_SOURCE_BYTES } from './source-file.js';
import { ImportError, type JsonObject, type JsonValue } from './normalized-advisory.js';

/** Largest file (or uncompressed zip entry) an importer reads: the one bound of source-file.ts. */
export const MAX_INPUT_BYTES = MAX_SOURCE_BYTES;
/** Largest single string in a document (a details text of an OSV record is a few KiB). */
const MAX_STRING = 1024 * 1024;

export function parseJsonBytes(file: string, bytes: Uint8Array): JsonValue {
  if (bytes.byteLength > MAX_INPUT_BYTES) throw new ImportError(file, 0, `file larger than ${MAX_INPUT_BYTES} bytes`);
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    throw new ImportError(file, 0, 'not valid UTF-8');
  }
  let value: JsonValue;
  try {
    value = JSON.parse(text) as JsonValue;
  } catch (err) {
    throw new ImportError(file, lineAt(text, jsonErrorOffset(text)), `invalid JSON: ${err instanceof Error ? err.message : String(err)}`);
  }
  checkValue(file, value, 0);
  return value;
}

function checkString(file: string, s: string): void {
  if (s.includes('\u0000')) throw new ImportError(file, 0, 'NUL character in a string');
  if (s.length > MAX_STRING) throw new ImportError(file, 0, `string longer than ${MAX_STRING} characters`);
}

// Iterative over arrays and objects' members, recursive only in depth, which is bounded.
// `depth` counts the collections around `v`: at most MAX_NESTING collections inside one another.
function checkValue(file: string, v: JsonValue, depth: number): void {
  if (typeof v === 'string') checkString(file, v);
  else if (v === null || typeof v !== 'object') return;
  else if (depth >= MAX_NESTING) throw new ImportError(file, 0, tooDeep());
  else if (Array.isArray(v)) for (const x of v) checkValue(file, x, depth + 1);
  else
    for (const [k, x] of Object.entries(v)) {
      checkString(file, k);
      checkValue(file, x, depth + 1);
    }
}

/** Field readers: `where` names the field in the error (e.g. "affected[2].package.name"). */
export class JsonFields {
  constructor(readonly file: string) {}

  fail(where: string, message: string): never {
    throw new ImportError(this.file, 0, `${where}: ${message}`);
  }

  object(v: JsonValue | undefined, where: string): JsonObject {
    if (v === null || typeof v !== 'object' || Array.isArray(v)) this.fail(where, 'must be an object');
    return v;
  }

  optionalObject(v: JsonValue | undefined, where: string): JsonObject | undefined {
    return v === undefined || v === null ? undefined : this.object(v, where);
  }

  array(v: JsonValue | undefined, where: string): JsonValue[] {
    if (!Array.isArray(v)) this.fail(where, 'must be an array');
    return v;
  }

  optionalArray(v: JsonValue | undefined, where: string): JsonValue[] {
    return v === undefined || v === null ? [] : this.array(v, where);
  }

  string(v: JsonValue | undefined, where: string): string {
    if (typeof v !== 'string' || v === '') this.fail(where, 'must be a non-empty string');
    return v;
  }

  optionalString(v: JsonValue | undefined, where: string): string | undefined {
    if (v === undefined || v === null) return undefined;
    if (typeof v !== 'string') this.fail(where, 'must be a string');
    return v;
  }

  /** An RFC 3339 time, returned normalized to UTC with milliseconds. */
  time(v: JsonValue | undefined, where: string): string {
    const s = this.string(v, where);
    const t = Date.parse(s);
    if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/i.test(s) || Number.isNaN(t)) this.fail(where, `not an RFC 3339 time: ${s}`);
    return new Date(t).toISOString();
  }
}

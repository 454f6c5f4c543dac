// Typed reads of a scanner report's JSON: an absent field is empty, a field of
// the wrong type is refused naming where it is, a list is bounded. The bytes
// were checked (size, UTF-8, nesting, NUL, string length) by parseJsonBytes.
import type { JsonObject, JsonValue } from '../../vulnerabilities/import/normalized-advisory.js';
import { MAX_LIST_ENTRIES, ScannerReportError } from './scanner-report.js';

export type { JsonObject, JsonValue };

export function fail(where: string, message: string): never {
  throw new ScannerReportError(`${where}: ${message}`);
}

export function isObject(v: JsonValue | undefined): v is JsonObject {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

export function obj(v: JsonValue | undefined, where: string): JsonObject {
  if (v === undefined || v === null) return {};
  if (!isObject(v)) fail(where, 'must be an object');
  return v;
}

export function arr(v: JsonValue | undefined, where: string, max = MAX_LIST_ENTRIES): JsonValue[] {
  if (v === undefined || v === null) return [];
  if (!Array.isArray(v)) fail(where, 'must be an array');
  if (v.length > max) fail(where, `more than ${max} entries`);
  return v;
}

export function str(v: JsonValue | undefined, where: string): string {
  if (v === undefined || v === null) return '';
  if (typeof v !== 'string') fail(where, 'must be a string');
  return v;
}

/** A list of strings, empty ones left out, each once, in first-seen order. */
export function strings(v: JsonValue | undefined, where: string): string[] {
  const out = new Set<string>();
  for (const [i, x] of arr(v, where).entries()) {
    const s = str(x, `${where}[${i}]`);
    if (s !== '') out.add(s);
  }
  return [...out];
}

const RFC3339 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/i;

/** An RFC 3339 time normalized to UTC with milliseconds; undefined when absent or empty. */
export function optionalTime(v: JsonValue | undefined, where: string): string | undefined {
  const s = str(v, where);
  if (s === '') return undefined;
  const t = Date.parse(s);
  if (!RFC3339.test(s) || Number.isNaN(t)) fail(where, `not an RFC 3339 time: ${s.slice(0, 80)}`);
  return new Date(t).toISOString();
}

export function requiredTime(v: JsonValue | undefined, where: string): string {
  return optionalTime(v, where) ?? fail(where, 'must be an RFC 3339 time (the report says when it was made)');
}

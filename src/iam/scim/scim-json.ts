// Checks on the JSON a SCIM client sends, before anything reads it: bounded
// nesting, no NUL in any key or string (PostgreSQL cannot store one), and
// attribute lookup without regard to case (RFC 7643 §2.1).
import { scimInvalidSyntax, scimInvalidValue } from './scim-errors.js';
import { SCIM_LIMITS } from './scim-schemas.js';

export type Json = Record<string, unknown>;

export function isObject(v: unknown): v is Json {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Throws invalidValue on a NUL anywhere (or a __proto__ key), invalidSyntax on nesting deeper than the limit. */
export function checkJson(v: unknown, depth = 0): void {
  if (depth > SCIM_LIMITS.depth) throw scimInvalidSyntax(`the JSON nests deeper than ${SCIM_LIMITS.depth} levels`);
  if (typeof v === 'string') {
    if (v.includes('\u0000')) throw scimInvalidValue('strings must not contain NUL (\\u0000) characters');
  } else if (Array.isArray(v)) {
    for (const x of v) checkJson(x, depth + 1);
  } else if (isObject(v)) {
    for (const [k, x] of Object.entries(v)) {
      if (k.includes('\u0000')) throw scimInvalidValue('attribute names must not contain NUL (\\u0000) characters');
      // Patched objects are written with plain assignment, which would treat this key as the prototype.
      if (k === '__proto__') throw scimInvalidValue('__proto__ is not an attribute name');
      checkJson(x, depth + 1);
    }
  }
}

/** The key of `obj` that names `attr`, whatever its case. */
export function keyOf(obj: Json, attr: string): string | undefined {
  if (Object.hasOwn(obj, attr)) return attr;
  const lower = attr.toLowerCase();
  return Object.keys(obj).find((k) => k.toLowerCase() === lower);
}

export function getAttr(obj: Json, attr: string): unknown {
  const k = keyOf(obj, attr);
  return k === undefined ? undefined : obj[k];
}

/** Sets `attr` under the key it already has, or under `attr`. */
export function setAttr(obj: Json, attr: string, value: unknown): void {
  obj[keyOf(obj, attr) ?? attr] = value;
}

export function deleteAttr(obj: Json, attr: string): void {
  const k = keyOf(obj, attr);
  if (k !== undefined) delete obj[k];
}

/** An optional string attribute of at most the name length; undefined when absent or null. */
export function optionalString(obj: Json, attr: string): string | undefined {
  const v = getAttr(obj, attr);
  if (v === undefined || v === null) return undefined;
  if (typeof v !== 'string') throw scimInvalidValue(`${attr} must be a string`);
  if (v.length > SCIM_LIMITS.nameLength) throw scimInvalidValue(`${attr} must be at most ${SCIM_LIMITS.nameLength} characters`);
  return v;
}

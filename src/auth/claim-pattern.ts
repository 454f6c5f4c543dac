// claimMatch patterns are RE2 regular expressions matched against the whole
// value (re2js, the syntax the deployed API's Go services use). RE2 runs in
// time linear in the value whatever the pattern, which matters because the
// issuer pattern runs on claims of a token whose signature is not checked yet.
// Identity create/update validates with the same compiler, so what is accepted
// is exactly what runs.
import { RE2JS } from 're2js';
import { setRecent } from '../core/recent-map.js';

/** Longest pattern accepted: bounds compile time and program size. */
export const MAX_PATTERN_LENGTH = 512;
/** Longest value a pattern is run on; longer ones match nothing. Matching costs program size × length. */
export const MAX_MATCHED_LENGTH = 2048;

// Compiled patterns by source, least recently used first. Compiling a long
// pattern costs milliseconds; an exchange should not pay it every time.
const CACHE_LIMIT = 256;
const compiled = new Map<string, RE2JS | null>();

function compile(pattern: string): RE2JS | null {
  const hit = compiled.get(pattern);
  if (hit !== undefined) {
    compiled.delete(pattern);
    compiled.set(pattern, hit);
    return hit;
  }
  let re: RE2JS | null = null;
  if (pattern.length <= MAX_PATTERN_LENGTH) {
    try {
      re = RE2JS.compile(pattern);
    } catch {
      re = null;
    }
  }
  setRecent(compiled, pattern, re, CACHE_LIMIT);
  return re;
}

/** Why `pattern` cannot be stored, or undefined when it can. */
export function patternProblem(pattern: string): string | undefined {
  if (pattern.length > MAX_PATTERN_LENGTH) return `pattern must be at most ${MAX_PATTERN_LENGTH} characters`;
  try {
    RE2JS.compile(pattern);
    return undefined;
  } catch (err) {
    return `pattern must be a valid RE2 regular expression: ${(err as Error).message}`;
  }
}

/**
 * Whether `value` matches all of `pattern`. A pattern RE2 rejects (stored
 * before patterns were checked with RE2) matches nothing.
 */
export function matchesPattern(pattern: string, value: string): boolean {
  if (value.length > MAX_MATCHED_LENGTH) return false;
  return compile(pattern)?.matches(value) ?? false;
}

// The filters a list accepts (RFC 7644 §3.4.2.2): `attr eq "value"` on the
// attributes provisioning clients look users and groups up by. The text is
// parsed by scim2-parse-filter; anything it parses that is not such a
// comparison is refused with 400 invalidFilter, as §3.12 asks of filters a
// server does not support.
import { parse, type Filter } from 'scim2-parse-filter';
import { scimInvalidFilter } from './scim-errors.js';

export interface EqFilter {
  /** The attribute as the caller's table of supported ones names it. */
  attr: string;
  value: string;
}

const MAX_FILTER_LENGTH = 1024;

/** The one comparison `text` asks for; undefined without a filter. */
export function eqFilter(text: string | undefined, coreUrn: string, supported: readonly string[]): EqFilter | undefined {
  if (text === undefined || text === '') return undefined;
  if (text.length > MAX_FILTER_LENGTH || text.includes('\u0000')) throw scimInvalidFilter('the filter is too long or holds NUL');
  let f: Filter;
  try {
    f = parse(text);
  } catch {
    throw scimInvalidFilter('the filter does not parse');
  }
  const why = `supported filters: ${supported.map((a) => `${a} eq "…"`).join(', ')}`;
  if (f.op !== 'eq' || typeof f.compValue !== 'string') throw scimInvalidFilter(why);
  let path = f.attrPath;
  if (path.toLowerCase().startsWith(`${coreUrn.toLowerCase()}:`)) path = path.slice(coreUrn.length + 1);
  const attr = supported.find((a) => a.toLowerCase() === path.toLowerCase());
  if (!attr) throw scimInvalidFilter(why);
  return { attr, value: f.compValue };
}

/** startIndex and count (§3.4.2.4): 1-based, count bounded; bad numbers are refused. */
export function paging(startIndex: string | undefined, count: string | undefined, maxCount: number): { offset: number; limit: number } {
  const num = (v: string | undefined, name: string, fallback: number) => {
    if (v === undefined || v === '') return fallback;
    if (!/^-?\d{1,9}$/.test(v)) throw scimInvalidFilterValue(name);
    return Number(v);
  };
  const start = Math.max(1, num(startIndex, 'startIndex', 1));
  const limit = Math.min(maxCount, Math.max(0, num(count, 'count', maxCount)));
  return { offset: start - 1, limit };
}

function scimInvalidFilterValue(name: string) {
  return scimInvalidFilter(`${name} must be an integer`);
}

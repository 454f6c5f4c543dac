// The `start` and `end` of a tag history request: RFC 3339 timestamps, sent
// URL-encoded or not. The raw query is split by hand and each value decoded
// with decodeURIComponent, so an unencoded "+02:00" offset stays a '+'
// instead of becoming a space as form decoding would. A timestamp is checked
// field by field (Date.parse takes 30 February) and turned into the stored
// text form; finer than milliseconds rounds up, which keeps "at or after" and
// "before" exact against millisecond records.
import { OciError } from './oci-errors.js';
import type { HistoryWindow } from '../registry/tags/tag-history.js';

const RFC3339 = /^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,9}))?(?:([Zz])|([+-])(\d{2}):(\d{2}))$/;
const MAX_MS = Date.UTC(9999, 11, 31, 23, 59, 59, 999);

// Date.UTC reads years below 100 as 19xx, so the year is set on its own.
function utcMs(y: number, mo: number, d: number, h: number, mi: number, s: number): number {
  const date = new Date(Date.UTC(2000, mo - 1, d, h, mi, s));
  date.setUTCFullYear(y);
  return date.getTime();
}

const YEAR_ZERO_MS = utcMs(0, 1, 1, 0, 0, 0);

function daysIn(y: number, mo: number): number {
  if (mo === 2) return (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0 ? 29 : 28;
  return [4, 6, 9, 11].includes(mo) ? 30 : 31;
}

function invalid(param: string, value: string): OciError {
  return new OciError('REQUEST_INVALID', `${param} must be an RFC 3339 timestamp such as 2024-01-01T00:00:00Z`, { [param]: value.slice(0, 64) });
}

/** The stored-text form of an RFC 3339 timestamp (rounded up to the millisecond), or throws REQUEST_INVALID naming `param`. */
export function parseBound(param: string, value: string): string {
  const m = RFC3339.exec(value);
  if (!m) throw invalid(param, value);
  const [y, mo, d, h, mi, s] = m.slice(1, 7).map(Number);
  const offH = m[10] === undefined ? 0 : Number(m[10]);
  const offM = m[11] === undefined ? 0 : Number(m[11]);
  if (mo < 1 || mo > 12 || d < 1 || d > daysIn(y, mo) || h > 23 || mi > 59 || s > 59 || offH > 23 || offM > 59) throw invalid(param, value);
  const nanos = Number((m[7] ?? '').padEnd(9, '0'));
  const fractionMs = Math.floor((nanos + 999_999) / 1_000_000);
  const offsetMs = (m[9] === '-' ? -1 : 1) * (offH * 60 + offM) * 60_000;
  const ms = utcMs(y, mo, d, h, mi, s) + fractionMs - offsetMs;
  return new Date(Math.min(MAX_MS, Math.max(YEAR_ZERO_MS, ms))).toISOString();
}

/** `start` and `end` from a raw query string (each at most once). */
export function historyWindow(rawQuery: string): { start?: string; end?: string } {
  const out: HistoryWindow & { start?: string; end?: string } = {};
  for (const pair of rawQuery.split('&')) {
    const eq = pair.indexOf('=');
    const key = eq < 0 ? pair : pair.slice(0, eq);
    if (key !== 'start' && key !== 'end') continue;
    if (out[key] !== undefined) throw new OciError('REQUEST_INVALID', `${key} is given more than once`);
    let value: string;
    try {
      value = decodeURIComponent(eq < 0 ? '' : pair.slice(eq + 1));
    } catch {
      throw invalid(key, pair);
    }
    out[key] = parseBound(key, value);
  }
  return out;
}

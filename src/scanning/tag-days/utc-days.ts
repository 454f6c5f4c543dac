// The UTC days of a report's range: days are counted from the epoch, so a
// range is two integers and each day's bounds are exact stored-time strings.
import type { Timestamp } from '@bufbuild/protobuf/wkt';

/** Longest range one request may cover. */
export const MAX_DAYS = 366;

const DAY_MS = 86_400_000;
/** 0001-01-01 and 9999-12-31: outside them a day has no stored-time form. */
const MIN_DAY = Math.ceil(-62_135_596_800_000 / DAY_MS);
const MAX_DAY = Math.floor(253_402_300_799_999 / DAY_MS);

/** The UTC day of a timestamp, or undefined when it lies outside years 1–9999. */
export function dayOf(ts: Pick<Timestamp, 'seconds' | 'nanos'>): number | undefined {
  const ms = Number(ts.seconds) * 1000 + Math.floor(ts.nanos / 1_000_000);
  if (!Number.isFinite(ms)) return undefined;
  const day = Math.floor(ms / DAY_MS);
  return day < MIN_DAY || day > MAX_DAY ? undefined : day;
}

export function today(now = Date.now()): number {
  return Math.floor(now / DAY_MS);
}

/** The day's first instant in the stored time form (RFC 3339 UTC, milliseconds). */
export function dayStartIso(day: number): string {
  return new Date(day * DAY_MS).toISOString();
}

/** The days first..last, both included. */
export function daysFrom(first: number, last: number): number[] {
  const out: number[] = [];
  for (let d = first; d <= last; d++) out.push(d);
  return out;
}

/** The day a stored time falls on. */
export function dayOfIso(iso: string): number {
  return Math.floor(Date.parse(iso) / DAY_MS);
}

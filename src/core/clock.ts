// Timestamps are stored as RFC 3339 UTC strings with exactly three fractional
// digits: they sort as text on every database and print as the API shows them.
import { timestampFromMs, timestampMs, type Timestamp } from '@bufbuild/protobuf/wkt';

export function nowIso(): string {
  return new Date().toISOString();
}

// Timestamps read from the database remember their text, so a response
// writes it back without formatting a Date again (100 per listed page).
const texts = new WeakMap<Timestamp, string>();

export function isoToTimestamp(iso: string): Timestamp {
  const ts = timestampFromMs(Date.parse(iso));
  texts.set(ts, iso);
  return ts;
}

/** RFC 3339 with exactly three fractional digits and "Z". */
export function timestampText(ts: Timestamp): string {
  return texts.get(ts) ?? timestampToIso(ts);
}

export function timestampToIso(ts: Timestamp): string {
  return new Date(timestampMs(ts)).toISOString();
}

// Timestamps are stored as RFC 3339 UTC strings with exactly three fractional
// digits: they sort as text on every database and print as the API shows them.
import { timestampFromMs, timestampMs, type Timestamp } from '@bufbuild/protobuf/wkt';

export function nowIso(): string {
  return new Date().toISOString();
}

export function isoToTimestamp(iso: string): Timestamp {
  return timestampFromMs(Date.parse(iso));
}

export function timestampToIso(ts: Timestamp): string {
  return new Date(timestampMs(ts)).toISOString();
}

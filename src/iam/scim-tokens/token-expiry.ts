// When a new SCIM token expires: a year from now by default, never with
// never_expires, else the requested time, which must lie in the future and at
// most two years out (the reference's bounds).
import { timestampDate, type Timestamp } from '@bufbuild/protobuf/wkt';
import type { FieldViolation } from '../../core/api-error.js';

const YEAR_MS = 365 * 24 * 3600 * 1000;

/** ISO expiry, or null for a token that never expires; a violation when the request is out of bounds. */
export function tokenExpiry(expireTime: Timestamp | undefined, neverExpires: boolean, now: Date, bad: FieldViolation[]): string | null {
  if (neverExpires) {
    if (expireTime) bad.push({ field: 'expire_time', description: 'give expire_time or never_expires, not both' });
    return null;
  }
  if (!expireTime) return new Date(now.getTime() + YEAR_MS).toISOString();
  const at = timestampDate(expireTime);
  if (Number.isNaN(at.getTime()) || at.getTime() <= now.getTime()) bad.push({ field: 'expire_time', description: 'must lie in the future' });
  else if (at.getTime() > now.getTime() + 2 * YEAR_MS) bad.push({ field: 'expire_time', description: 'must be at most two years from now' });
  return at.toISOString();
}

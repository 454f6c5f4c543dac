// What makes a new invite valid, from the request alone: its ttl (default and
// maximum 7 days — the deployed CLI's default; the reference names no
// maximum), its optional email and its role uid.
import type { Duration } from '@bufbuild/protobuf/wkt';
import type { FieldViolation } from '../../core/api-error.js';
import { isValidUid } from '../../core/uidp.js';
import { ROLE_SCOPE_RULE, roleOutsideGroup } from '../role-bindings/binding-rules.js';

export const DEFAULT_TTL_MS = 7 * 24 * 3600 * 1000;
export const MAX_TTL_MS = DEFAULT_TTL_MS;
const MIN_TTL_MS = 1000;
export const MAX_EMAIL = 254;
// A deliberately loose shape: one @, no spaces. Berth compares it, never mails it.
const EMAIL = /^[^\s@]{1,64}@[^\s@]{1,189}$/;

/** The ttl in milliseconds (default when absent), or a violation. */
export function ttlMs(ttl: Duration | undefined, out: FieldViolation[]): number {
  if (!ttl) return DEFAULT_TTL_MS;
  const ms = Number(ttl.seconds) * 1000 + Math.trunc(ttl.nanos / 1_000_000);
  if (ttl.seconds < 0n || ttl.nanos < 0 || ms < MIN_TTL_MS) {
    out.push({ field: 'group_invite.ttl', description: 'ttl must be at least 1s' });
  } else if (ms > MAX_TTL_MS) {
    out.push({ field: 'group_invite.ttl', description: `ttl must be at most ${MAX_TTL_MS / 1000}s (7 days)` });
  }
  return ms;
}

/** The email as stored (lower case), or a violation; '' means anyone holding the code. */
export function inviteEmail(email: string, out: FieldViolation[]): string {
  if (email === '') return '';
  if (email.length > MAX_EMAIL || !EMAIL.test(email)) {
    out.push({ field: 'group_invite.email', description: `email must be an address such as kim@example.com, at most ${MAX_EMAIL} characters` });
  }
  return email.toLowerCase();
}

/** The role uid: present, well formed, and defined at the invite's group or above it. */
export function roleViolations(roleUid: string, parent: string, out: FieldViolation[]): void {
  const field = 'group_invite.role_uid';
  if (roleUid === '') out.push({ field, description: 'role_uid is required' });
  else if (!isValidUid(roleUid)) out.push({ field, description: 'role_uid is not a valid uid' });
  else if (roleOutsideGroup(roleUid, parent)) out.push({ field, description: ROLE_SCOPE_RULE });
}

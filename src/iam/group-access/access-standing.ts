// Where a caller stands towards the organization of its email domain:
// CheckEligibility reports it and RequestGroupAccess acts on it, so the two
// never disagree.
import type { Executor } from '../../store/transact.js';
import { callerOrganization, type CallerOrganization } from './caller-organization.js';

/** How long a denied request keeps its requester from asking again, so owners are not pestered. */
export const DENIED_COOL_OFF_MS = 24 * 3600 * 1000;

export type Standing = { kind: 'no-organization' } | ({ kind: 'member' | 'waiting' | 'eligible' } & CallerOrganization);

export async function accessStanding(db: Executor, identityUid: string, now = Date.now()): Promise<Standing> {
  const found = await callerOrganization(db, identityUid);
  if (!found) return { kind: 'no-organization' };
  const bound = await db
    .selectFrom('role_bindings')
    .select('uid')
    .where('parent_uid', '=', found.org.uid)
    .where('identity_uid', '=', identityUid)
    .executeTakeFirst();
  if (bound) return { kind: 'member', ...found };
  const since = new Date(now - DENIED_COOL_OFF_MS).toISOString();
  const open = await db
    .selectFrom('group_access_requests')
    .select('uid')
    .where('parent_uid', '=', found.org.uid)
    .where('identity_uid', '=', identityUid)
    .where((eb) => eb.or([eb('state', '=', 'pending'), eb.and([eb('state', '=', 'denied'), eb('decide_time', '>', since)])]))
    .executeTakeFirst();
  return { kind: open ? 'waiting' : 'eligible', ...found };
}

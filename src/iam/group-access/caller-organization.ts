// The organization a caller may ask to join: the one an operator verified the
// domain of the caller's verified email for (berth admin verify-domain), and
// only when the caller's identity could be bound there (a root-level identity,
// or one created in that organization). Anything else is no organization,
// so LookupGroup and RequestGroupAccess answer the same NOT_FOUND whether an
// organization exists, has verified nothing, or lies out of the caller's reach.
import { bindingWithinIdentityScope } from '../../auth/identity-scope.js';
import type { Executor } from '../../store/transact.js';
import type { GroupsTable } from '../iam-tables.js';

export interface CallerOrganization {
  org: GroupsTable;
  /** The caller's verified email. */
  email: string;
}

/** The lower-case domain of an email address, or '' when it has none. */
export function emailDomain(email: string): string {
  const at = email.lastIndexOf('@');
  return at < 1 ? '' : email.slice(at + 1).toLowerCase();
}

export async function callerOrganization(db: Executor, identityUid: string): Promise<CallerOrganization | undefined> {
  const identity = await db.selectFrom('identities').select('email').where('uid', '=', identityUid).executeTakeFirst();
  const domain = emailDomain(identity?.email ?? '');
  if (domain === '') return undefined;
  const org = await db
    .selectFrom('org_domains')
    .innerJoin('groups', 'groups.uid', 'org_domains.group_uid')
    .selectAll('groups')
    .where('org_domains.domain', '=', domain)
    .where('groups.parent_uid', 'is', null)
    .where('groups.verified', '=', 1)
    .executeTakeFirst();
  if (!org || !bindingWithinIdentityScope(identityUid, org.uid)) return undefined;
  return { org, email: identity!.email };
}

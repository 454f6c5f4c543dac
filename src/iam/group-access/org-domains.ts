// Operator: verify (or withdraw) an email domain for an organization, with
// access to the database (berth admin verify-domain), as the reference has
// staff set `verified`. A domain belongs to one organization at most; the
// organization's `verified` is whether it has any verified domain left.
import { nowIso } from '../../core/clock.js';
import type { Store } from '../../store/store.js';
import { getSetting } from '../../store/settings-store.js';
import { transact, type Tx } from '../../store/transact.js';

// Lower-case DNS names of two labels or more; checked here because the
// operator types them and a typo would silently match nobody.
const DOMAIN = /^(?=.{1,253}$)(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z][a-z0-9-]{0,61}[a-z0-9]$/;

export interface DomainChange {
  /** Organization name; default: the one created on first start. */
  org?: string;
  domain: string;
  remove?: boolean;
}

async function organization(store: Store, name: string | undefined): Promise<{ uid: string; name: string }> {
  let q = store.db.selectFrom('groups').select(['uid', 'name']).where('parent_uid', 'is', null);
  if (name !== undefined) q = q.where('name', '=', name);
  else {
    const first = await getSetting(store, 'bootstrap');
    if (!first) throw new Error('this database has no organization yet: start the server once (berth serve)');
    q = q.where('uid', '=', first);
  }
  const org = await q.executeTakeFirst();
  if (!org)
    throw new Error(name !== undefined ? `no organization named ${JSON.stringify(name)}` : 'the first-start organization no longer exists; pass --org NAME');
  return org;
}

async function markVerified(tx: Tx, org: string): Promise<void> {
  const left = await tx.selectFrom('org_domains').select('domain').where('group_uid', '=', org).executeTakeFirst();
  await tx
    .updateTable('groups')
    .set({ verified: left ? 1 : 0, update_time: nowIso() })
    .where('uid', '=', org)
    .execute();
}

/** Verifies or withdraws `domain` for the organization; what it did, for the operator. */
export async function changeOrgDomain(store: Store, change: DomainChange): Promise<string> {
  const domain = change.domain.toLowerCase();
  if (!DOMAIN.test(domain)) throw new Error(`${JSON.stringify(change.domain.slice(0, 80))} is not a domain name (such as example.com)`);
  const org = await organization(store, change.org);
  return transact(store, async (tx) => {
    const held = await tx.selectFrom('org_domains').select('group_uid').where('domain', '=', domain).executeTakeFirst();
    if (change.remove) {
      if (held?.group_uid !== org.uid) throw new Error(`${domain} is not verified for ${org.name}`);
      await tx.deleteFrom('org_domains').where('domain', '=', domain).execute();
      await markVerified(tx, org.uid);
      return `${domain} is no longer verified for ${org.name} (${org.uid})`;
    }
    if (held && held.group_uid !== org.uid) throw new Error(`${domain} is verified for another organization (${held.group_uid}); remove it there first`);
    if (!held) await tx.insertInto('org_domains').values({ domain, group_uid: org.uid, create_time: nowIso() }).execute();
    await markVerified(tx, org.uid);
    return `${domain} is verified for ${org.name} (${org.uid}): identities with a verified email there can find it and ask to join`;
  });
}

// The group an import writes into: --group (a uid, or the name of exactly one
// group), else the organization first start created, whose owner therefore
// sees what was imported. An import creates no group: the root group
// "advisory-feed" older versions made held advisories nobody had a role on.
// Resolved inside the import's transaction, so a --dry-run names the group
// the real run uses.
import { isValidUid } from '../../core/uidp.js';
import { firstStartOrganization } from '../../iam/first-start-organization.js';
import type { Tx } from '../../store/transact.js';

export interface ImportGroup {
  uid: string;
  name: string;
}

/** Candidates listed when a name is ambiguous; more are reported as "at least". */
const MAX_CANDIDATES = 20;

export async function resolveImportGroup(tx: Tx, requested?: string): Promise<ImportGroup> {
  if (requested === undefined) {
    const org = await firstStartOrganization(tx);
    if (!org) throw new Error('--group: this database has no first-start organization (start the server once, or name a group with --group)');
    return org;
  }
  if (requested === '') throw new Error('--group: an empty group name');
  if (isValidUid(requested)) {
    const byUid = await tx.selectFrom('groups').select(['uid', 'name']).where('uid', '=', requested).executeTakeFirst();
    if (!byUid) throw new Error(`--group: no group ${requested}`);
    return byUid;
  }
  const named = await tx
    .selectFrom('groups')
    .select(['uid', 'name'])
    .where('name', '=', requested)
    .orderBy('uid')
    .limit(MAX_CANDIDATES + 1)
    .execute();
  if (named.length === 1) return named[0];
  const shown = JSON.stringify(requested.slice(0, 80));
  if (named.length === 0) throw new Error(`--group: no group named ${shown} (see \`berth iam groups list\`)`);
  const count = named.length > MAX_CANDIDATES ? `at least ${MAX_CANDIDATES + 1}` : String(named.length);
  const uids = named.slice(0, MAX_CANDIDATES).map((g) => `  ${g.uid}`);
  throw new Error(`--group: ${count} groups are named ${shown}; give the uid of one of them:\n${uids.join('\n')}`);
}

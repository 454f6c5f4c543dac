// IAM's answer to auth's AccessDirectory: whether an identity exists and what
// its bindings grant, reused while the tables they come from are unchanged.
// Triggers bump a table's version on every write by any instance, so one small
// read per request tells whether a cached answer still holds: a deleted
// identity or a changed binding counts on the very next request, everywhere.
import type { AccessDirectory, AccessState } from '../../auth/access-directory.js';
import { Grants } from '../../auth/grants.js';
import type { Capability } from '../../gen/berth/capabilities/v1/capabilities_pb.js';
import type { Store } from '../../store/store.js';
import { setRecent } from '../../core/recent-map.js';
import { readTableVersions } from '../../store/table-versions.js';

const LIMIT = 10_000;

interface Entry {
  identitiesVersion: string;
  exists: boolean;
  grantsVersion?: string;
  grants?: Grants;
}

export class IamAccessDirectory implements AccessDirectory {
  private readonly entries = new Map<string, Entry>();

  constructor(private readonly store: Store) {}

  async load(identityUid: string): Promise<AccessState> {
    const versions = await readTableVersions(this.store.db);
    const v = (t: string) => versions.get(t) ?? '';
    const identitiesVersion = v('identities');
    const grantsVersion = `${v('role_bindings')},${v('roles')}`;
    let entry = this.entries.get(identityUid);
    if (!entry || entry.identitiesVersion !== identitiesVersion) {
      const row = await this.store.db.selectFrom('identities').select('uid').where('uid', '=', identityUid).executeTakeFirst();
      entry = { ...entry, identitiesVersion, exists: row !== undefined };
      setRecent(this.entries, identityUid, entry, LIMIT);
    }
    const current = entry;
    return {
      exists: current.exists,
      versions,
      grants: async () => {
        if (current.grants && current.grantsVersion === grantsVersion) return current.grants;
        current.grants = await this.readGrants(identityUid);
        current.grantsVersion = grantsVersion;
        return current.grants;
      },
    };
  }

  private async readGrants(identityUid: string): Promise<Grants> {
    const rows = await this.store.db
      .selectFrom('role_bindings as rb')
      .innerJoin('roles as r', 'r.uid', 'rb.role_uid')
      .select(['rb.parent_uid as group_uid', 'r.capabilities'])
      .where('rb.identity_uid', '=', identityUid)
      .execute();
    return Grants.of(
      identityUid,
      rows.map((r) => ({ groupUid: r.group_uid, capabilities: JSON.parse(r.capabilities) as Capability[] })),
    );
  }
}

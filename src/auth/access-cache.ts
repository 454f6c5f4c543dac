// Per-identity access state — does the identity still exist, and what may it
// do — reused while the tables it comes from are unchanged. Triggers bump a
// table's version on every write by any instance (migration 0002), so one
// small read per request tells whether a cached answer still holds: a deleted
// identity or a changed binding counts on the very next request, everywhere.
import type { Store } from '../store/store.js';
import { readTableVersions, type TableVersions } from '../store/table-versions.js';
import { Grants } from './grants.js';

const LIMIT = 10_000;

interface Entry {
  identitiesVersion: string;
  exists: boolean;
  grantsVersion?: string;
  grants?: Grants;
}

export interface AccessState {
  exists: boolean;
  /** Every table's version as this request read it: other caches (list totals) check against it instead of reading again. */
  versions: TableVersions;
  grants(): Promise<Grants>;
}

export class AccessCache {
  private readonly entries = new Map<string, Entry>();

  async load(store: Store, identityUid: string): Promise<AccessState> {
    const versions = await readTableVersions(store.db);
    const v = (t: string) => versions.get(t) ?? '';
    const identitiesVersion = v('identities');
    const grantsVersion = `${v('role_bindings')},${v('roles')}`;
    let entry = this.entries.get(identityUid);
    if (!entry || entry.identitiesVersion !== identitiesVersion) {
      const row = await store.db.selectFrom('identities').select('uid').where('uid', '=', identityUid).executeTakeFirst();
      entry = { ...entry, identitiesVersion, exists: row !== undefined };
      this.remember(identityUid, entry);
    }
    const current = entry;
    return {
      exists: current.exists,
      versions,
      grants: async () => {
        if (current.grants && current.grantsVersion === grantsVersion) return current.grants;
        current.grants = await Grants.read(store, identityUid);
        current.grantsVersion = grantsVersion;
        return current.grants;
      },
    };
  }

  private remember(uid: string, entry: Entry): void {
    this.entries.delete(uid); // re-insert: the map's order is recency
    if (this.entries.size >= LIMIT) this.entries.delete(this.entries.keys().next().value as string);
    this.entries.set(uid, entry);
  }
}

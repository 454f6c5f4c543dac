// What a caller may do, read from its current role bindings on every request
// (so a new or deleted binding counts on the very next call). A binding on a
// group grants its role's capabilities on the group and everything below it.
import type { Capability } from '../gen/berth/capabilities/v1/capabilities_pb.js';
import { isSelfOrBelow, outermost } from '../core/uidp.js';
import type { Store } from '../store/store.js';

const CACHE_LIMIT = 10_000;
const cache = new Map<string, { key: string; grants: Grants }>();

export class Grants {
  private constructor(private readonly byCap: Map<Capability, string[]>) {}

  static readonly none = new Grants(new Map());

  /**
   * The caller's grants, reused while neither role bindings nor roles have
   * changed (their table versions are bumped by triggers on every write, by
   * any instance), so a changed binding still counts on the very next request.
   */
  static async load(store: Store, identityUid: string): Promise<Grants> {
    const versions = await store.db
      .selectFrom('table_versions')
      .select(['table_name', 'version'])
      .where('table_name', 'in', ['role_bindings', 'roles'])
      .execute();
    const key = versions.map((v) => `${v.table_name}=${v.version}`).sort().join(',');
    const cached = cache.get(identityUid);
    if (cached && cached.key === key) return cached.grants;
    const grants = await Grants.read(store, identityUid);
    if (cache.size >= CACHE_LIMIT) cache.delete(cache.keys().next().value as string);
    cache.set(identityUid, { key, grants });
    return grants;
  }

  private static async read(store: Store, identityUid: string): Promise<Grants> {
    const rows = await store.db
      .selectFrom('role_bindings as rb')
      .innerJoin('roles as r', 'r.uid', 'rb.role_uid')
      .select(['rb.parent_uid as group_uid', 'r.capabilities'])
      .where('rb.identity_uid', '=', identityUid)
      .execute();
    const byCap = new Map<Capability, string[]>();
    for (const row of rows) {
      for (const cap of JSON.parse(row.capabilities) as Capability[]) {
        const list = byCap.get(cap);
        if (list) list.push(row.group_uid);
        else byCap.set(cap, [row.group_uid]);
      }
    }
    for (const [cap, groups] of byCap) byCap.set(cap, outermost(groups));
    return new Grants(byCap);
  }

  /** True when the capability is held at `uid` or at one of its ancestors. */
  has(cap: Capability, uid: string): boolean {
    return (this.byCap.get(cap) ?? []).some((g) => isSelfOrBelow(uid, g));
  }

  /** The outermost groups at which the capability is held. */
  scopes(cap: Capability): readonly string[] {
    return this.byCap.get(cap) ?? [];
  }

  /** Every capability held at `uid`. */
  at(uid: string): Capability[] {
    return [...this.byCap.entries()].filter(([, gs]) => gs.some((g) => isSelfOrBelow(uid, g))).map(([c]) => c);
  }
}

// What a caller may do, read from its current role bindings. A binding on a
// group grants its role's capabilities on the group and everything below it.
import type { Capability } from '../gen/berth/capabilities/v1/capabilities_pb.js';
import { isSelfOrBelow, outermost } from '../core/uidp.js';
import type { Store } from '../store/store.js';
import { bindingWithinIdentityScope } from './identity-scope.js';

export class Grants {
  private constructor(private readonly byCap: Map<Capability, string[]>) {}

  static readonly none = new Grants(new Map());

  static async read(store: Store, identityUid: string): Promise<Grants> {
    const rows = await store.db
      .selectFrom('role_bindings as rb')
      .innerJoin('roles as r', 'r.uid', 'rb.role_uid')
      .select(['rb.parent_uid as group_uid', 'r.capabilities'])
      .where('rb.identity_uid', '=', identityUid)
      .execute();
    const byCap = new Map<Capability, string[]>();
    for (const row of rows) {
      // Bindings are checked against the identity's scope when written; this
      // keeps one written before that rule (or by any other path) inert.
      if (!bindingWithinIdentityScope(identityUid, row.group_uid)) continue;
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

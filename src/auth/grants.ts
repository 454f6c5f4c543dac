// What a caller may do: each capability with the outermost groups it is held
// at. A binding on a group grants its role's capabilities on the group and
// everything below it. Built from the caller's bindings, which IAM reads.
import type { Capability } from '../gen/berth/capabilities/v1/capabilities_pb.js';
import { isSelfOrBelow, outermost } from '../core/uidp.js';
import { bindingWithinIdentityScope } from './identity-scope.js';

/** One role binding of the identity: the group and its role's capabilities. */
export interface GrantRow {
  groupUid: string;
  capabilities: readonly Capability[];
}

export class Grants {
  // The same groups as sets, made on first use: a check then walks the uid's
  // own ancestors (at most MAX_DEPTH) instead of every group the capability is
  // held at, so its cost does not grow with the caller's bindings.
  private readonly sets = new Map<Capability, ReadonlySet<string>>();

  private constructor(private readonly byCap: Map<Capability, string[]>) {}

  static readonly none = new Grants(new Map());

  static of(identityUid: string, rows: Iterable<GrantRow>): Grants {
    const byCap = new Map<Capability, string[]>();
    for (const row of rows) {
      // Bindings are checked against the identity's scope when written; this
      // keeps one written before that rule (or by any other path) inert.
      if (!bindingWithinIdentityScope(identityUid, row.groupUid)) continue;
      for (const cap of row.capabilities) {
        const list = byCap.get(cap);
        if (list) list.push(row.groupUid);
        else byCap.set(cap, [row.groupUid]);
      }
    }
    for (const [cap, groups] of byCap) byCap.set(cap, outermost(groups));
    return new Grants(byCap);
  }

  /**
   * These grants down-scoped by a token's narrowing: only the capabilities in
   * `caps` (all when absent), only at or below the groups in `scopes` (all when
   * absent). Never more than these grants: a narrowed token does less.
   */
  narrow(caps: readonly Capability[] | undefined, scopes: readonly string[] | undefined): Grants {
    if (caps === undefined && scopes === undefined) return this;
    const keep = caps && new Set(caps);
    const byCap = new Map<Capability, string[]>();
    for (const [cap, groups] of this.byCap) {
      if (keep && !keep.has(cap)) continue;
      const at = scopes === undefined ? groups : groups.flatMap((g) => scopes.flatMap((s) => (isSelfOrBelow(g, s) ? [g] : isSelfOrBelow(s, g) ? [s] : [])));
      if (at.length > 0) byCap.set(cap, outermost(at));
    }
    return new Grants(byCap);
  }

  /** True when the capability is held at `uid` or at one of its ancestors. */
  has(cap: Capability, uid: string): boolean {
    const groups = this.byCap.get(cap);
    if (!groups) return false;
    if (groups.length <= 4) return groups.some((g) => isSelfOrBelow(uid, g));
    let set = this.sets.get(cap);
    if (!set) {
      set = new Set(groups);
      this.sets.set(cap, set);
    }
    // uid itself, then each ancestor: a uid path loses one "/segment" per level.
    for (let at = uid; ; ) {
      if (set.has(at)) return true;
      const slash = at.lastIndexOf('/');
      if (slash < 0) return false;
      at = at.slice(0, slash);
    }
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

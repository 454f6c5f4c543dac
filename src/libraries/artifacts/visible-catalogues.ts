// Which catalogues a caller reads: those of the groups at, above or below a
// group where it holds libraries.artifacts.list. A catalogue imported into an
// organization is its members' whatever group they are bound at; another
// organization's is never visible. As a list condition on group_uid, written
// so that SQLite does not search the group index (a catalogue is dense: one
// group holds most rows, and walking the order's index and filtering is what
// keeps a page cheap; PostgreSQL chooses by itself).
import { type Expression, sql } from 'kysely';
import type { HandlerContext } from '@connectrpc/connect';
import { callerOf } from '../../auth/caller.js';
import { ancestorsOf } from '../../core/uidp.js';
import { Capability } from '../../gen/berth/capabilities/v1/capabilities_pb.js';
import { anyOf, inSubtrees, never, type Condition } from '../../list/conditions.js';
import type { DatabaseCapabilities } from '../../store/db-capabilities.js';
import type { TableVersions } from '../../store/table-versions.js';
import { LIBRARIES_DOMAIN } from '../errors.js';

export interface Visible {
  condition: Condition;
  /** What makes the condition: part of a list's fingerprint (page tokens, cached totals). */
  key: readonly string[];
  versions?: TableVersions;
}

export async function visibleCatalogues(ctx: HandlerContext, caps: DatabaseCapabilities): Promise<Visible> {
  const caller = callerOf(ctx, LIBRARIES_DOMAIN);
  const scopes = [...(await caller.scopes(Capability.CAP_LIBRARIES_ARTIFACTS_LIST))].sort();
  if (scopes.length === 0) return { condition: never, key: [], versions: caller.tableVersions };
  const above = [...new Set(scopes.flatMap((s) => ancestorsOf(s)))].sort();
  // Without statistics (SQLite) the planner cannot weigh the ranges: walk the order's index and filter. PostgreSQL weighs them.
  const walk = caps.estimateRows === undefined;
  const column = { name: walk ? '+group_uid' : 'group_uid', write: () => (walk ? caps.unindexed('group_uid') : sql.ref<string>('group_uid')) };
  const below = inSubtrees(scopes, true, column);
  // An ancestor is a one-uid "subtree" of itself alone: [uid, uid + "\0").
  const at = above.map((uid) => exactly(uid, column));
  return { condition: anyOf([...at, below]), key: scopes, versions: caller.tableVersions };
}

function exactly(uid: string, column: { name: string; write: () => Expression<string> }): Condition {
  return {
    shape: `${column.name} =`,
    values: [uid],
    where: (eb, [v]) => eb(column.write(), '=', v as string),
  };
}

// Which catalogues a caller reads: those of the groups at, above or below a
// group where it holds libraries.artifacts.list. A catalogue imported into an
// organization is its members' whatever group they are bound at; another
// organization's is never visible. As a list condition on group_uid.
import { sql } from 'kysely';
import type { HandlerContext } from '@connectrpc/connect';
import { callerOf } from '../../auth/caller.js';
import { ancestorsOf } from '../../core/uidp.js';
import { Capability } from '../../gen/berth/capabilities/v1/capabilities_pb.js';
import { anyOf, inSubtrees, never, oneOf, type Condition } from '../../list/conditions.js';
import type { TableVersions } from '../../store/table-versions.js';
import { LIBRARIES_DOMAIN } from '../errors.js';

export interface Visible {
  condition: Condition;
  /** What makes the condition: part of a list's fingerprint (page tokens, cached totals). */
  key: readonly string[];
  versions?: TableVersions;
}

export async function visibleCatalogues(ctx: HandlerContext): Promise<Visible> {
  const caller = callerOf(ctx, LIBRARIES_DOMAIN);
  const scopes = [...(await caller.scopes(Capability.CAP_LIBRARIES_ARTIFACTS_LIST))].sort();
  if (scopes.length === 0) return { condition: never, key: [], versions: caller.tableVersions };
  const above = [...new Set(scopes.flatMap((s) => ancestorsOf(s)))].sort();
  const below = inSubtrees(scopes, true, { name: 'group_uid', write: () => sql.ref('group_uid') });
  return { condition: above.length > 0 ? anyOf([oneOf('group_uid', above), below]) : below, key: scopes, versions: caller.tableVersions };
}

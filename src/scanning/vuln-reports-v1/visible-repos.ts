// Unscoped report reads answer only from repos the caller holds
// vuln_report.list at: a repo is visible when its uid is at or below one of
// the caller's scopes for that capability.
import type { HandlerContext } from '@connectrpc/connect';
import { sql, type ExpressionBuilder, type Expression, type SqlBool } from 'kysely';
import { callerOf } from '../../auth/caller.js';
import { descendantRange } from '../../core/uidp.js';
import { Capability } from '../../gen/berth/capabilities/v1/capabilities_pb.js';
import { REGISTRY_DOMAIN } from '../../registry/errors.js';
import type { Database } from '../../store/database.js';

/** The caller's scopes for vuln_report.list (refuses an anonymous caller). */
export async function reportScopes(ctx: HandlerContext): Promise<readonly string[]> {
  return callerOf(ctx, REGISTRY_DOMAIN).scopes(Capability.CAP_VULN_REPORT_LIST);
}

/** vuln_reports.repo_uid at or below one of `scopes` (never called with none). */
export function inScopes(eb: ExpressionBuilder<Database, 'vuln_reports'>, scopes: readonly string[]): Expression<SqlBool> {
  const col = sql.ref<string>('vuln_reports.repo_uid');
  return eb.or(
    scopes.map((s) => {
      const r = descendantRange(s);
      return eb.and([eb(col, '>=', s), eb(col, '<', r.high)]);
    }),
  );
}

// GetArtifactCount: per requested ecosystem, how many artifacts the
// catalogues the caller reads hold. Shared with v1.
import type { HandlerContext } from '@connectrpc/connect';
import { split } from '../../list/conditions.js';
import type { Executor } from '../../store/transact.js';
import type { EcosystemName } from '../ecosystems.js';
import { badLibrariesRequest } from '../errors.js';
import { ecosystemsViolations } from './artifact-filters.js';
import { visibleCatalogues } from './visible-catalogues.js';

/** The requested ecosystems (first occurrence order) with their counts. */
export async function artifactCounts(
  db: Executor,
  ctx: HandlerContext,
  requested: ReadonlyArray<EcosystemName | undefined>,
): Promise<Array<{ ecosystem: EcosystemName; count: number }>> {
  const violations = ecosystemsViolations(requested);
  if (violations.length > 0) throw badLibrariesRequest(violations);
  const names = [...new Set(requested as EcosystemName[])];
  const visible = await visibleCatalogues(ctx);
  const rows = await db
    .selectFrom('library_artifacts')
    .select((eb) => ['ecosystem', eb.fn.countAll().as('n')])
    .where('ecosystem', 'in', names)
    .where((eb) => {
      const [[cond, values]] = split([visible.condition], visible.condition.values);
      return cond.where(eb, values);
    })
    .groupBy('ecosystem')
    .execute();
  const by = new Map(rows.map((r) => [r.ecosystem, Number(r.n)]));
  return names.map((e) => ({ ecosystem: e, count: by.get(e) ?? 0 }));
}

// GetArtifactCount: per requested ecosystem, how many artifacts the
// catalogues the caller reads hold. Shared with v1.
import type { HandlerContext } from '@connectrpc/connect';
import { compiledQuery, runCompiled } from '../../store/compiled-queries.js';
import type { Store } from '../../store/store.js';
import type { EcosystemName } from '../ecosystems.js';
import { badLibrariesRequest } from '../errors.js';
import { ecosystemsViolations } from './artifact-filters.js';
import { visibleCatalogues } from './visible-catalogues.js';

const COUNT = compiledQuery('library artifact counts');

/** The requested ecosystems (first occurrence order) with their counts. */
export async function artifactCounts(
  store: Store,
  ctx: HandlerContext,
  requested: ReadonlyArray<EcosystemName | undefined>,
): Promise<Array<{ ecosystem: EcosystemName; count: number }>> {
  const violations = ecosystemsViolations(requested);
  if (violations.length > 0) throw badLibrariesRequest(violations);
  const names = [...new Set(requested as EcosystemName[])];
  const visible = await visibleCatalogues(ctx, store.caps);
  const cond = visible.condition;
  const rows = await runCompiled<{ ecosystem: string; n: number | string | bigint }>(
    store.db,
    { handle: COUNT, shape: `${names.length} ${cond.shape}` },
    [...names, ...cond.values],
    (vs) =>
      store.db
        .selectFrom('library_artifacts')
        .select((eb) => ['ecosystem', eb.fn.countAll().as('n')])
        .where('ecosystem', 'in', vs.slice(0, names.length) as string[])
        .where((eb) => cond.where(eb, vs.slice(names.length)))
        .groupBy('ecosystem'),
  );
  const by = new Map(rows.map((r) => [r.ecosystem, Number(r.n)]));
  return names.map((e) => ({ ecosystem: e, count: by.get(e) ?? 0 }));
}

// The catalogue rows of one artifact id among those the caller reads: one per
// visible catalogue that holds it (usually one). Checked before any version is
// read, so an artifact of another organization answers as one that does not exist.
import type { HandlerContext } from '@connectrpc/connect';
import type { FieldViolation } from '../../core/api-error.js';
import type { Store } from '../../store/store.js';
import { compiledQuery, runCompiled } from '../../store/compiled-queries.js';
import { badLibrariesRequest } from '../errors.js';
import { visibleCatalogues } from './visible-catalogues.js';

export const MAX_ARTIFACT_ID = 512;
const LOOKUP = compiledQuery('library artifact by uid');

export interface ArtifactKeys {
  /** artifact key → its name, ecosystem and number of versions. */
  rows: Map<string, { name: string; ecosystem: string; versionCount: number }>;
  visibleKey: readonly string[];
}

export function artifactIdViolations(id: string, field: string): FieldViolation[] {
  if (id === '') return [{ field, description: 'an artifact id is required' }];
  if (id.length > MAX_ARTIFACT_ID) return [{ field, description: `at most ${MAX_ARTIFACT_ID} characters` }];
  if (id.includes('/') || id.includes(' ')) return [{ field, description: 'an artifact id is one path segment without spaces, such as pypi:flask' }];
  return [];
}

export async function visibleArtifact(store: Store, ctx: HandlerContext, id: string, field: string): Promise<ArtifactKeys> {
  const violations = artifactIdViolations(id, field);
  if (violations.length > 0) throw badLibrariesRequest(violations);
  const visible = await visibleCatalogues(ctx, store.caps);
  const cond = visible.condition;
  const rows = await runCompiled<{ key: string; name: string; ecosystem: string; version_count: number }>(
    store.db,
    { handle: LOOKUP, shape: cond.shape },
    [id, ...cond.values],
    ([uid, ...values]) =>
      store.db
        .selectFrom('library_artifacts')
        .select(['key', 'name', 'ecosystem', 'version_count'])
        .where('uid', '=', uid as string)
        .where((eb) => cond.where(eb, values))
        .orderBy('key'),
  );
  return {
    rows: new Map(rows.map((r) => [r.key, { name: r.name, ecosystem: r.ecosystem, versionCount: Number(r.version_count) }])),
    visibleKey: visible.key,
  };
}

// ListArtifacts: unscoped in the guard, so the list narrows itself to the
// catalogues the caller reads (visible-catalogues.ts); filters, paging,
// order_by (default name) and skip from the list engine. Shared with v1.
import type { HandlerContext } from '@connectrpc/connect';
import type { ListArtifactsRequest, ListArtifactsResponse } from '../../gen/berth/libraries/v2/artifacts_pb.js';
import type { Page } from '../../list/keyset-page.js';
import { runList, type ListParams, type ListSpec } from '../../list/run-list.js';
import type { ServiceDeps } from '../../runtime/service-deps.js';
import { ecosystemOfV2 } from '../ecosystems.js';
import { LIBRARIES_DOMAIN } from '../errors.js';
import { artifactFilters, type ArtifactFilterInput } from './artifact-filters.js';
import { ARTIFACT_COLUMNS, artifactOf, type ArtifactRow } from './artifact-rows.js';
import { visibleCatalogues } from './visible-catalogues.js';

export const ARTIFACTS_LIST: ListSpec = {
  table: 'library_artifacts',
  domain: LIBRARIES_DOMAIN,
  columns: { name: 'name', uid: 'key', created_at: 'create_time', updated_at: 'update_time' },
  key: 'key',
  defaultOrder: { field: 'name', desc: false },
  select: ARTIFACT_COLUMNS,
};

export async function artifactsPage(deps: ServiceDeps, ctx: HandlerContext, params: ListParams, input: ArtifactFilterInput): Promise<Page<ArtifactRow>> {
  const filters = artifactFilters(input);
  const visible = await visibleCatalogues(ctx, deps.store.caps);
  return runList<ArtifactRow>(
    deps,
    ARTIFACTS_LIST,
    params,
    { conditions: [...filters.conditions, visible.condition], key: { f: filters.key, v: visible.key }, violations: filters.violations },
    'all',
    visible.versions,
  );
}

export async function listArtifacts(deps: ServiceDeps, req: ListArtifactsRequest, ctx: HandlerContext): Promise<ListArtifactsResponse> {
  const page = await artifactsPage(deps, ctx, req, {
    ecosystems: req.ecosystems.map(ecosystemOfV2),
    query: req.query,
    cudaVersion: req.cudaVersion,
    remediated: req.remediated,
  });
  return {
    $typeName: 'berth.libraries.v2.ListArtifactsResponse',
    artifacts: page.rows.map(artifactOf),
    nextPageToken: page.nextPageToken,
    totalCount: page.totalCount,
    skipped: page.skipped,
  };
}

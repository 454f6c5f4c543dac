// ListArtifactVersions: the versions of one artifact the caller may read,
// by default newest first in the ecosystem's own order. Pages follow the
// stored rank (version-ranks.ts), so a keyset page continues exactly where
// the previous one ended; an unknown or invisible artifact is NotFound.
import type { HandlerContext } from '@connectrpc/connect';
import type { ListArtifactVersionsRequest, ListArtifactVersionsResponse } from '../../gen/berth/libraries/v2/artifacts_pb.js';
import { oneOf } from '../../list/conditions.js';
import { runList, type ListSpec } from '../../list/run-list.js';
import type { ServiceDeps } from '../../runtime/service-deps.js';
import { artifactNotFound, LIBRARIES_DOMAIN } from '../errors.js';
import { visibleArtifact } from './artifact-lookup.js';
import { VERSION_COLUMNS, versionOf, type VersionRow } from './artifact-rows.js';

export const VERSIONS_LIST: ListSpec = {
  table: 'library_versions',
  domain: LIBRARIES_DOMAIN,
  columns: { version: 'version_rank', uid: 'key', created_at: 'create_time', updated_at: 'update_time' },
  key: 'key',
  defaultOrder: { field: 'version', desc: true },
  select: VERSION_COLUMNS,
};

export async function listArtifactVersions(deps: ServiceDeps, req: ListArtifactVersionsRequest, ctx: HandlerContext): Promise<ListArtifactVersionsResponse> {
  const found = await visibleArtifact(deps.store, ctx, req.artifactId, 'artifact_id');
  if (found.rows.size === 0) throw artifactNotFound(req.artifactId);
  const keys = [...found.rows.keys()];
  // The artifact row holds its version count (the writer keeps it): the list counts nothing.
  const knownTotal = [...found.rows.values()].reduce((n, r) => n + r.versionCount, 0);
  const page = await runList<VersionRow>(deps, VERSIONS_LIST, req, { conditions: [oneOf('artifact_key', keys)], key: keys, knownTotal }, 'all');
  return {
    $typeName: 'berth.libraries.v2.ListArtifactVersionsResponse',
    artifactVersions: page.rows.map((r) => versionOf(r, found.rows.get(r.artifact_key)?.name ?? '')),
    nextPageToken: page.nextPageToken,
    totalCount: page.totalCount,
    skipped: page.skipped,
  };
}

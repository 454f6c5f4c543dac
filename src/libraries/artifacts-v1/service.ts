// berth.libraries.v1.Artifacts: the v1 twin of ArtifactsService over the
// same functions (filters, visibility, list engine), in v1 shapes. v1
// also lists JavaScript; its version list has no paging (the newest
// MAX_V1_VERSIONS), and an unknown id is an empty list, not an error.
import type { ServiceImpl } from '@connectrpc/connect';
import type { Artifacts } from '../../gen/berth/libraries/v1/artifacts_pb.js';
import type { ServiceDeps } from '../../runtime/service-deps.js';
import { artifactCounts } from '../artifacts/artifact-count.js';
import { visibleArtifact } from '../artifacts/artifact-lookup.js';
import { VERSION_COLUMNS } from '../artifacts/artifact-rows.js';
import { artifactsPage } from '../artifacts/list-artifacts.js';
import { ECOSYSTEMS, ecosystemOfV1 } from '../ecosystems.js';
import { v1Artifact, v1Version } from './v1-messages.js';

export const MAX_V1_VERSIONS = 10_000;

export function artifactsV1Service(deps: ServiceDeps): ServiceImpl<typeof Artifacts> {
  return {
    async list(req, ctx) {
      const page = await artifactsPage(
        deps,
        ctx,
        { pageSize: req.pageSize, pageToken: req.pageToken, skip: req.skip, orderBy: '' },
        { ecosystems: req.ecosystems.map(ecosystemOfV1), query: req.query, cudaVersion: req.cudaVersion, remediated: req.remediated },
      );
      return {
        $typeName: 'berth.libraries.v1.ArtifactList',
        items: page.rows.map(v1Artifact),
        nextPageToken: page.nextPageToken,
        totalArtifacts: Number(page.totalCount),
        skipped: page.skipped,
      };
    },
    async listVersions(req, ctx) {
      const found = await visibleArtifact(deps.store, ctx, req.id, 'id');
      const keys = [...found.rows.keys()];
      const rows =
        keys.length === 0
          ? []
          : await deps.store.db
              .selectFrom('library_versions')
              .select(VERSION_COLUMNS)
              .where('artifact_key', 'in', keys)
              .orderBy('version_rank', 'desc')
              .orderBy('key', 'desc')
              .limit(MAX_V1_VERSIONS)
              .execute();
      return {
        $typeName: 'berth.libraries.v1.ArtifactVersionList',
        items: rows.map((r) => v1Version(r, req.id, found.rows.get(r.artifact_key)?.name ?? '')),
      };
    },
    async getArtifactCount(req, ctx) {
      const counts = await artifactCounts(deps.store, ctx, req.ecosystems.map(ecosystemOfV1));
      return {
        $typeName: 'berth.libraries.v1.GetArtifactCountResponse',
        counts: counts.map((c) => ({
          $typeName: 'berth.libraries.v1.GetArtifactCountResponse.Count',
          ecosystem: ECOSYSTEMS[c.ecosystem].v1,
          totalArtifacts: c.count,
        })),
      };
    },
  };
}

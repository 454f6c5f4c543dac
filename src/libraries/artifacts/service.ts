// berth.libraries.v2.ArtifactsService: read-only; the catalogue is written by
// `berth libraries import` (src/libraries/import/) through catalogue-writer.ts.
import type { ServiceImpl } from '@connectrpc/connect';
import type { ArtifactsService } from '../../gen/berth/libraries/v2/artifacts_pb.js';
import type { ServiceDeps } from '../../runtime/service-deps.js';
import { getArtifactCount } from './get-artifact-count.js';
import { listArtifactVersions } from './list-artifact-versions.js';
import { listArtifacts } from './list-artifacts.js';

export function artifactsService(deps: ServiceDeps): ServiceImpl<typeof ArtifactsService> {
  return {
    listArtifacts: (req, ctx) => listArtifacts(deps, req, ctx),
    listArtifactVersions: (req, ctx) => listArtifactVersions(deps, req, ctx),
    getArtifactCount: (req, ctx) => getArtifactCount(deps, req, ctx),
  };
}

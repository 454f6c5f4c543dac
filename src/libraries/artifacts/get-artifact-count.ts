// GetArtifactCount (v2).
import type { HandlerContext } from '@connectrpc/connect';
import type { GetArtifactCountRequest, GetArtifactCountResponse } from '../../gen/berth/libraries/v2/artifacts_pb.js';
import type { ServiceDeps } from '../../runtime/service-deps.js';
import { ECOSYSTEMS, ecosystemOfV2 } from '../ecosystems.js';
import { artifactCounts } from './artifact-count.js';

export async function getArtifactCount(deps: ServiceDeps, req: GetArtifactCountRequest, ctx: HandlerContext): Promise<GetArtifactCountResponse> {
  const counts = await artifactCounts(deps.store, ctx, req.ecosystems.map(ecosystemOfV2));
  return {
    $typeName: 'berth.libraries.v2.GetArtifactCountResponse',
    counts: counts.map((c) => ({
      $typeName: 'berth.libraries.v2.GetArtifactCountResponse.EcosystemCount',
      ecosystem: ECOSYSTEMS[c.ecosystem].v2 ?? 0,
      totalCount: BigInt(c.count),
    })),
  };
}

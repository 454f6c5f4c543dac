import { create } from '@bufbuild/protobuf';
import { ArchsSchema, type ArchRequest, type Archs } from '../../gen/berth/registry/v1/registry_pb.js';
import { GetArchitecturesRequestSchema } from '../../gen/berth/registry/v2/images_pb.js';
import type { ServiceDeps } from '../../runtime/service-deps.js';
import { getArchitectures } from '../images/get-architectures.js';

/** v1 GetArchs: v2's GetArchitectures, answered as {archs}. */
export async function getArchs(deps: ServiceDeps, req: ArchRequest): Promise<Archs> {
  const v2 = await getArchitectures(deps, create(GetArchitecturesRequestSchema, { repoUid: req.repoId, digest: req.digest }));
  return create(ArchsSchema, { archs: v2.architectures });
}

// v1 GetSbom: the packages Berth inventoried for an image of the repo (for an
// index, the union of its platforms'), as Sbom2. The guard checked repo.list,
// sboms.list and manifest.metadata.list at the repo before this runs.
import { create } from '@bufbuild/protobuf';
import type { SbomRequest } from '../../gen/berth/registry/v1/registry_pb.js';
import { type Sbom2, Sbom2Schema } from '../../gen/berth/tenant/v1/sbom_pb.js';
import type { ServiceDeps } from '../../runtime/service-deps.js';
import { package2 } from './package-message.js';
import { sbomTarget } from './sbom-target.js';

export async function getSbom(deps: ServiceDeps, req: SbomRequest): Promise<Sbom2> {
  const inv = await sbomTarget(deps, req.repoId, req.digest);
  return create(Sbom2Schema, { packages: inv.packages.map(package2) });
}

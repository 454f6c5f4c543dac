// GetArchitectures: the architectures a manifest of the repo offers (an
// index's entries', or a single image's own), as the reference API answers.
import { create } from '@bufbuild/protobuf';
import { ArchitecturesSchema, type Architectures, type GetArchitecturesRequest } from '../../gen/berth/registry/v2/images_pb.js';
import type { ServiceDeps } from '../../runtime/service-deps.js';
import { imageArchitectures } from '../content/image-platforms.js';
import { imageNotFound } from '../errors.js';
import { checkImageRequest } from './image-target.js';

export async function getArchitectures(deps: ServiceDeps, req: GetArchitecturesRequest): Promise<Architectures> {
  await checkImageRequest(deps, req);
  const architectures = await imageArchitectures(deps.store.db, req.repoUid, req.digest);
  if (architectures === undefined) throw imageNotFound(req.repoUid, req.digest);
  return create(ArchitecturesSchema, { architectures });
}

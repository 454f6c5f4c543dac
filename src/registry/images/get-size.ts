// GetSize: the bytes one architecture of a manifest pulls (its image's config
// plus layers), amd64 when the request names none, as the reference API
// answers. An architecture the image does not offer is NOT_FOUND
// (architectureNotFound), not a size of 0: 0 would read as an empty image.
import { create } from '@bufbuild/protobuf';
import { SizeSchema, type GetSizeRequest, type Size } from '../../gen/berth/registry/v2/images_pb.js';
import type { ServiceDeps } from '../../runtime/service-deps.js';
import { statManifest } from '../content/get-manifest.js';
import { DEFAULT_ARCHITECTURE, imageSize } from '../content/image-platforms.js';
import { architectureNotFound, imageNotFound } from '../errors.js';
import { checkImageRequest } from './image-target.js';

export async function getSize(deps: ServiceDeps, req: GetSizeRequest): Promise<Size> {
  await checkImageRequest(deps, req);
  const architecture = req.architecture === '' ? DEFAULT_ARCHITECTURE : req.architecture;
  const size = await imageSize(deps.store.db, req.repoUid, req.digest, architecture);
  if (size !== undefined) return create(SizeSchema, { size: BigInt(size), architecture });
  // imageSize does not say which is missing, the manifest or the architecture.
  if ((await statManifest(deps.store.db, req.repoUid, req.digest)) === undefined) throw imageNotFound(req.repoUid, req.digest);
  throw architectureNotFound(req.repoUid, req.digest, architecture);
}

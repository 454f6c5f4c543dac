// GetPlatforms (Berth's addition): every image a manifest offers, with its
// platform, its own manifest digest and its size, so a client can show an
// index's per-architecture child digests without reading the registry.
import { create } from '@bufbuild/protobuf';
import { PlatformsSchema, type GetPlatformsRequest, type Platforms } from '../../gen/berth/registry/v2/images_pb.js';
import type { ServiceDeps } from '../../runtime/service-deps.js';
import { imagePlatforms } from '../content/image-platforms.js';
import { imageNotFound } from '../errors.js';
import { checkImageRequest } from './image-target.js';

export async function getPlatforms(deps: ServiceDeps, req: GetPlatformsRequest): Promise<Platforms> {
  await checkImageRequest(deps, req);
  const images = await imagePlatforms(deps.store.db, req.repoUid, req.digest);
  if (images === undefined) throw imageNotFound(req.repoUid, req.digest);
  return create(PlatformsSchema, { platforms: images.map((p) => ({ ...p, size: BigInt(p.size) })) });
}

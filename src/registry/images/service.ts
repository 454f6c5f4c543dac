import type { ServiceImpl } from '@connectrpc/connect';
import type { ImagesService } from '../../gen/berth/registry/v2/images_pb.js';
import type { ServiceDeps } from '../../runtime/service-deps.js';
import { getArchitectures } from './get-architectures.js';
import { getPlatforms } from './get-platforms.js';
import { getSize } from './get-size.js';

export function imagesService(deps: ServiceDeps): ServiceImpl<typeof ImagesService> {
  return {
    getArchitectures: (req) => getArchitectures(deps, req),
    getSize: (req) => getSize(deps, req),
    getPlatforms: (req) => getPlatforms(deps, req),
  };
}

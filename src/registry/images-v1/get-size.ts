import { create } from '@bufbuild/protobuf';
import { SizeSchema, type Size, type SizeRequest } from '../../gen/berth/registry/v1/registry_pb.js';
import { GetSizeRequestSchema } from '../../gen/berth/registry/v2/images_pb.js';
import type { ServiceDeps } from '../../runtime/service-deps.js';
import { isPlatformWord } from '../content/descriptor.js';
import { badRegistryRequest } from '../errors.js';
import { getSize } from '../images/get-size.js';

/** v1 GetSize: v2's GetSize (amd64 by default), the architecture named `arch` both ways. */
export async function getSizeV1(deps: ServiceDeps, req: SizeRequest): Promise<Size> {
  // v2 names the field "architecture": checked here first so a violation names v1's.
  if (req.arch !== '' && !isPlatformWord(req.arch)) {
    throw badRegistryRequest([{ field: 'arch', description: 'arch must be a word of letters, digits, ".", "_", "+" or "-" (at most 64), e.g. amd64' }]);
  }
  const v2 = await getSize(deps, create(GetSizeRequestSchema, { repoUid: req.repoId, digest: req.digest, architecture: req.arch }));
  return create(SizeSchema, { size: v2.size, arch: v2.architecture });
}

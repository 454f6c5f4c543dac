// Checks an SBOM request's fields (the guard has already checked the caller's
// capabilities at the repo) and loads the inventory it names.
import { parseDigest } from '../../registry/content/digest.js';
import type { ServiceDeps } from '../../runtime/service-deps.js';
import { badSbomRequest } from './sbom-errors.js';
import { type ImageInventory, imageInventory } from './image-inventory.js';

export async function sbomTarget(deps: ServiceDeps, repoId: string, digest: string): Promise<ImageInventory> {
  if (!parseDigest(digest)) throw badSbomRequest([{ field: 'digest', description: 'must be a digest: sha256:<64 lowercase hex>' }]);
  return imageInventory(deps.store.db, repoId, digest);
}

// What every Images API RPC does before it reads an image: check the digest
// (and architecture) text, then that the repo exists. The guard has already
// checked the caller's capabilities at the repo uid, so a caller without them
// learns nothing of either. Whether the repo holds the digest is each RPC's
// own read (imageNotFound).
import type { FieldViolation } from '../../core/api-error.js';
import type { ServiceDeps } from '../../runtime/service-deps.js';
import { parseDigest } from '../content/digest.js';
import { isPlatformWord } from '../content/descriptor.js';
import { badRegistryRequest } from '../errors.js';
import { loadRepoRow } from '../repos/repo-row.js';

function digestViolation(digest: string): FieldViolation | undefined {
  if (digest === '') return { field: 'digest', description: 'digest is required' };
  if (!parseDigest(digest)) return { field: 'digest', description: 'digest must be sha256:<64 lowercase hex> or sha512:<128 lowercase hex>' };
  return undefined;
}

function architectureViolation(architecture: string | undefined): FieldViolation | undefined {
  if (architecture === undefined || architecture === '' || isPlatformWord(architecture)) return undefined;
  return { field: 'architecture', description: 'architecture must be a word of letters, digits, ".", "_", "+" or "-" (at most 64), e.g. amd64' };
}

/** Throws INVALID_ARGUMENT for a bad digest or architecture, then NOT_FOUND for an unknown repo. */
export async function checkImageRequest(deps: ServiceDeps, req: { repoUid: string; digest: string; architecture?: string }): Promise<void> {
  const violations = [digestViolation(req.digest), architectureViolation(req.architecture)].filter((v) => v !== undefined);
  if (violations.length > 0) throw badRegistryRequest(violations);
  await loadRepoRow(deps.store.db, req.repoUid);
}

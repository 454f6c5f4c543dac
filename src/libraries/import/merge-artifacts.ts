// Bounds on what one artifact may hold after merging.
import type { CatalogueArtifact } from '../catalogue-writer.js';

export const MAX_ARTIFACT_VERSIONS = 100_000;

/** False (and trimmed to the bound) when `a` holds more versions than the bound. */
export function maxVersionsOk(a: CatalogueArtifact): boolean {
  if (a.versions.length <= MAX_ARTIFACT_VERSIONS) return true;
  a.versions.length = MAX_ARTIFACT_VERSIONS;
  return false;
}

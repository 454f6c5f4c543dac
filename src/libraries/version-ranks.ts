// Each version's place within its artifact under the ecosystem's own order,
// stored zero-padded so that a text index orders versions as the ecosystem
// does and a keyset page continues where the last one ended. Equal versions
// (1.0 and 1.0.0 under PEP 440) share a rank; the key breaks the tie.
import { compareVersions, type VersionScheme } from '../versions/compare-versions.js';

const WIDTH = 10;

export function rankText(n: number): string {
  return String(n).padStart(WIDTH, '0');
}

/** version → rank text, ascending from 0. */
export function versionRanks(scheme: VersionScheme, versions: readonly string[]): Map<string, string> {
  const sorted = [...new Set(versions)].sort((a, b) => compareVersions(scheme, a, b) || (a < b ? -1 : a > b ? 1 : 0));
  const out = new Map<string, string>();
  let rank = 0;
  for (let i = 0; i < sorted.length; i++) {
    if (i > 0 && compareVersions(scheme, sorted[i - 1], sorted[i]) !== 0) rank = i;
    out.set(sorted[i], rankText(rank));
  }
  return out;
}

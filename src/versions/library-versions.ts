// The schemes a maintained library orders: PEP 440 (@renovatebot/pep440),
// SemVer 2.0.0 (npm's `semver`: npm and crates.io), and Go module versions,
// which are SemVer with a `v` (pseudo-versions are pre-releases, so they
// already sort by their timestamp; `+incompatible` is build metadata, which
// order ignores).
import * as pep440 from '@renovatebot/pep440';
import semver from 'semver';

export function isValidPep440Version(v: string): boolean {
  return pep440.valid(v) !== null;
}

export function comparePep440Versions(a: string, b: string): number {
  return Math.sign(pep440.compare(a, b));
}

export function isValidSemver(v: string): boolean {
  return semver.valid(v) !== null;
}

export function compareSemvers(a: string, b: string): number {
  return semver.compare(a, b);
}

/**
 * A Go module version as SemVer: the `v` is optional (OSV's Go ecosystem
 * leaves it out), and Go's shorthands v1 and v1.2 mean v1.0.0 and v1.2.0.
 */
export function goToSemver(v: string): string | undefined {
  const m = /^v?(\d+)(?:\.(\d+))?(?:\.(\d+))?([-+].*)?$/.exec(v);
  if (!m) return undefined;
  if (m[3] === undefined && m[4] !== undefined) return undefined; // v1.2-pre is not a Go version
  const s = `${m[1]}.${m[2] ?? '0'}.${m[3] ?? '0'}${m[4] ?? ''}`;
  return semver.valid(s) === null ? undefined : s;
}

export function isValidGoVersion(v: string): boolean {
  return goToSemver(v) !== undefined;
}

export function compareGoVersions(a: string, b: string): number {
  return semver.compare(goToSemver(a)!, goToSemver(b)!);
}

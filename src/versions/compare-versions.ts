// Version order per ecosystem: the one entry point matching uses. Each scheme
// follows its ecosystem's own rules (see the scheme files). Comparators never
// throw: a version longer than MAX_VERSION_LENGTH, or one its scheme cannot
// read, is invalid, and invalid versions sort before every valid one (among
// themselves by code units), so a hostile string can neither crash a scan nor
// look newer than a fix. apk, dpkg and Maven order any bounded string by
// their own algorithm, as their tools do; callers that must not guess
// (matching) check isValidVersion first.
import { compareApkVersions, isValidApkVersion } from './apk-version.js';
import { compareDpkgVersions, isValidDpkgVersion } from './dpkg-version.js';
import { compareGoVersions, comparePep440Versions, compareSemvers, isValidGoVersion, isValidPep440Version, isValidSemver } from './library-versions.js';
import { compareMavenVersions, isValidMavenVersion } from './maven-version.js';

export const VERSION_SCHEMES = ['apk', 'dpkg', 'pep440', 'semver', 'go', 'maven'] as const;
export type VersionScheme = (typeof VERSION_SCHEMES)[number];

/** Longer strings are no version of any scheme (real ones are far shorter). */
export const MAX_VERSION_LENGTH = 256;

interface SchemeRules {
  valid: (v: string) => boolean;
  compare: (a: string, b: string) => number;
  /** Whether `compare` orders strings `valid` refuses (apk, dpkg, Maven do, like their tools). */
  total: boolean;
}

const RULES: Readonly<Record<VersionScheme, SchemeRules>> = {
  apk: { valid: isValidApkVersion, compare: compareApkVersions, total: true },
  dpkg: { valid: isValidDpkgVersion, compare: compareDpkgVersions, total: true },
  maven: { valid: isValidMavenVersion, compare: compareMavenVersions, total: true },
  pep440: { valid: isValidPep440Version, compare: comparePep440Versions, total: false },
  semver: { valid: isValidSemver, compare: compareSemvers, total: false },
  go: { valid: isValidGoVersion, compare: compareGoVersions, total: false },
};

export function isVersionScheme(s: string): s is VersionScheme {
  return (VERSION_SCHEMES as readonly string[]).includes(s);
}

export function isValidVersion(scheme: VersionScheme, v: string): boolean {
  if (typeof v !== 'string' || v.length === 0 || v.length > MAX_VERSION_LENGTH || v.includes('\u0000')) return false;
  try {
    return RULES[scheme].valid(v);
  } catch {
    return false;
  }
}

function byCodeUnits(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Negative, 0 or positive as `a` sorts before, with or after `b` under `scheme`. */
export function compareVersions(scheme: VersionScheme, a: string, b: string): number {
  const rules = RULES[scheme];
  const bounded = (v: string) => typeof v === 'string' && v.length <= MAX_VERSION_LENGTH;
  const okA = rules.total ? bounded(a) : isValidVersion(scheme, a);
  const okB = rules.total ? bounded(b) : isValidVersion(scheme, b);
  if (!okA || !okB) return okA === okB ? byCodeUnits(String(a), String(b)) : okA ? 1 : -1;
  try {
    return Math.sign(rules.compare(a, b));
  } catch {
    return byCodeUnits(a, b);
  }
}

// The ecosystems a catalogue holds: how each names its artifacts (reference
// §4: pypi:<normalized>, maven:<groupId>:<artifactId>), which version order
// it uses, and its values in the v2 and v1 enums.
import { Ecosystem as V1Ecosystem } from '../gen/berth/libraries/v1/artifacts_pb.js';
import { Ecosystem as V2Ecosystem } from '../gen/berth/libraries/v2/artifacts_pb.js';
import type { VersionScheme } from '../versions/compare-versions.js';

export type EcosystemName = 'python' | 'java' | 'javascript';

export interface EcosystemRules {
  scheme: VersionScheme;
  v2: V2Ecosystem | undefined;
  v1: V1Ecosystem;
}

export const ECOSYSTEMS: Readonly<Record<EcosystemName, EcosystemRules>> = {
  python: { scheme: 'pep440', v2: V2Ecosystem.PYTHON, v1: V1Ecosystem.PYTHON },
  java: { scheme: 'maven', v2: V2Ecosystem.JAVA, v1: V1Ecosystem.JAVA },
  javascript: { scheme: 'semver', v2: undefined, v1: V1Ecosystem.JAVASCRIPT },
};

export function ecosystemOfV2(e: V2Ecosystem): EcosystemName | undefined {
  return (Object.keys(ECOSYSTEMS) as EcosystemName[]).find((n) => ECOSYSTEMS[n].v2 === e && e !== V2Ecosystem.UNSPECIFIED);
}

export function ecosystemOfV1(e: V1Ecosystem): EcosystemName | undefined {
  return (Object.keys(ECOSYSTEMS) as EcosystemName[]).find((n) => ECOSYSTEMS[n].v1 === e && e !== V1Ecosystem.UNKNOWN);
}

/** PEP 503: runs of "-", "_" and "." become one "-", lower-cased. */
export function normalizePythonName(name: string): string {
  return name.replace(/[-_.]+/g, '-').toLowerCase();
}

/** The artifact uid: one path segment (npm scopes' "/" becomes ":", which no npm name holds). */
export function artifactUid(ecosystem: EcosystemName, name: string): string {
  if (ecosystem === 'python') return `pypi:${normalizePythonName(name)}`;
  if (ecosystem === 'java') return `maven:${name}`;
  return `npm:${name.replace('/', ':')}`;
}

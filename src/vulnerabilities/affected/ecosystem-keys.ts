// Ecosystem keys: how an advisory and an installed package find each other.
// An advisory's affected package is stored under (ecosystem key, package
// name) and matching looks up exactly the keys of an inventory's packages,
// so both sides derive them here:
//   apk:wolfi, apk:chainguard, apk:alpine, apk:alpine:v3.20, apk (no namespace given)
//   deb:debian, deb:debian:12, deb:ubuntu, deb:ubuntu:22.04  (source package names)
//   npm, pypi (PEP 503 names), maven (groupId:artifactId), go (module path), crates.io
// Any other OSV ecosystem is kept under its lower-cased name and matches no
// inventory package today.
import type { VersionScheme } from '../../versions/compare-versions.js';
import type { Purl } from '../import/purl.js';

/** The key of apk advisories imported with `--namespace` (YAML, secdb, OpenVEX). */
export function apkEcosystem(namespace: string): string {
  const ns = namespace.toLowerCase();
  return ns === '' ? 'apk' : `apk:${ns}`;
}

/** PEP 503: lower case, runs of -_. as one '-'. */
export function pep503(name: string): string {
  return name.toLowerCase().replace(/[-_.]+/g, '-');
}

/** The key of an OSV `affected[].package.ecosystem` ("Wolfi", "Alpine:v3.20", "Debian:12", "Ubuntu:22.04:LTS", "PyPI", …). */
export function osvEcosystem(ecosystem: string): string {
  const [head, ...rest] = ecosystem.split(':');
  const e = head.toLowerCase();
  const release = rest.find((p) => /^v?\d/.test(p))?.toLowerCase();
  switch (e) {
    case 'wolfi':
    case 'chainguard':
      return `apk:${e}`;
    case 'alpine':
      return release ? `apk:alpine:${release.startsWith('v') ? release : `v${release}`}` : 'apk:alpine';
    case 'debian':
    case 'ubuntu':
      return release ? `deb:${e}:${release}` : `deb:${e}`;
    case 'npm':
    case 'pypi':
    case 'maven':
    case 'go':
    case 'crates.io':
      return e;
    default:
      return ecosystem.toLowerCase();
  }
}

/** The key of a purl's package, without a distribution release (purls of advisories seldom carry one). */
export function purlEcosystem(p: Pick<Purl, 'type' | 'namespace' | 'qualifiers'>): string {
  switch (p.type) {
    case 'apk':
      return apkEcosystem(p.namespace);
    case 'deb': {
      const distro = p.qualifiers.distro?.match(/^(?:[a-z]+)-(\d[\w.]*)$/)?.[1];
      const ns = p.namespace.toLowerCase() || 'debian';
      return distro ? `deb:${ns}:${distro}` : `deb:${ns}`;
    }
    case 'npm':
    case 'pypi':
    case 'maven':
      return p.type;
    case 'golang':
      return 'go';
    case 'cargo':
      return 'crates.io';
    default:
      return p.type;
  }
}

/** The name matching compares under `ecosystem`: PEP 503 for PyPI, as given elsewhere. */
export function packageKey(ecosystem: string, name: string): string {
  return ecosystem === 'pypi' ? pep503(name) : name;
}

/** A purl's package name under its key: maven groupId:artifactId, npm @scope/name, go's full module path. */
export function purlPackageName(p: { type: string; namespace?: string; name: string }): string {
  if (!p.namespace) return p.name;
  if (p.type === 'maven') return `${p.namespace}:${p.name}`;
  if (p.type === 'npm' || p.type === 'golang') return `${p.namespace}/${p.name}`;
  return p.name;
}

/** How versions under an ecosystem key compare; undefined when Berth cannot order them (no match is made). */
export function schemeOfEcosystem(ecosystem: string): VersionScheme | undefined {
  if (ecosystem === 'apk' || ecosystem.startsWith('apk:')) return 'apk';
  if (ecosystem.startsWith('deb:')) return 'dpkg';
  switch (ecosystem) {
    case 'npm':
    case 'crates.io':
      return 'semver';
    case 'pypi':
      return 'pep440';
    case 'maven':
      return 'maven';
    case 'go':
      return 'go';
    default:
      return undefined;
  }
}

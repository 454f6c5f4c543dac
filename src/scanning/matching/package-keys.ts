// Which (ecosystem key, package name) pairs an installed package is looked up
// under, and which of its versions is compared: the keys advisories are
// stored under (src/vulnerabilities/affected/ecosystem-keys.ts).
//   apk: the image's distribution (os-release ID; the purl namespace without
//     one): wolfi and chainguard images read Wolfi's, Chainguard's and
//     unnamespaced apk advisories; alpine images Alpine's, all releases and
//     their own (apk:alpine:v3.20); by binary name and by origin.
//   deb: the Debian or Ubuntu release (deb:debian:12 and deb:debian), by the
//     source package's name and version.
//   npm, pypi, maven, go, crates.io: by the purl's full name.
import { apkEcosystem, packageKey, purlPackageName, schemeOfEcosystem } from '../../vulnerabilities/affected/ecosystem-keys.js';
import type { VersionScheme } from '../../versions/compare-versions.js';
import type { ImageOs, InstalledPackage, Inventory } from '../inventory/inventory.js';

export interface LookupKey {
  ecosystem: string;
  package: string;
  /** The version compared with the advisory's bounds. */
  version: string;
  scheme: VersionScheme;
}

const WOLFI_FAMILY = new Set(['wolfi', 'chainguard']);

function apkEcosystems(os: ImageOs | undefined, pkg: InstalledPackage): string[] {
  const distro = (os?.id || pkg.namespace || '').toLowerCase();
  if (WOLFI_FAMILY.has(distro) || distro === '') return ['apk:wolfi', 'apk:chainguard', 'apk'];
  if (distro === 'alpine') {
    const release = /^(\d+)\.(\d+)/.exec(os?.versionId ?? '');
    return release ? ['apk:alpine', `apk:alpine:v${release[1]}.${release[2]}`] : ['apk:alpine'];
  }
  return [apkEcosystem(distro)];
}

function debEcosystems(os: ImageOs | undefined, pkg: InstalledPackage): string[] {
  const distro = (os?.id || pkg.namespace || 'debian').toLowerCase();
  const release = os?.versionId;
  return release ? [`deb:${distro}`, `deb:${distro}:${release}`] : [`deb:${distro}`];
}

function keys(ecosystems: readonly string[], names: readonly string[], version: string): LookupKey[] {
  const out: LookupKey[] = [];
  for (const ecosystem of ecosystems) {
    const scheme = schemeOfEcosystem(ecosystem);
    if (!scheme) continue;
    for (const name of new Set(names)) out.push({ ecosystem, package: packageKey(ecosystem, name), version, scheme });
  }
  return out;
}

/** The keys of one installed package; none for types Berth has no advisories for. */
export function lookupKeys(os: ImageOs | undefined, pkg: InstalledPackage): LookupKey[] {
  switch (pkg.type) {
    case 'apk':
      return keys(apkEcosystems(os, pkg), pkg.source?.name ? [pkg.name, pkg.source.name] : [pkg.name], pkg.version);
    case 'deb':
      return keys(debEcosystems(os, pkg), [pkg.source?.name || pkg.name], pkg.source?.version || pkg.version);
    case 'npm':
      return keys(['npm'], [purlPackageName(pkg)], pkg.version);
    case 'pypi':
      return keys(['pypi'], [pkg.name], pkg.version);
    case 'maven':
      return keys(['maven'], [purlPackageName(pkg)], pkg.version);
    case 'golang':
      return keys(['go'], [purlPackageName(pkg)], pkg.version);
    case 'cargo':
      return keys(['crates.io'], [pkg.name], pkg.version);
    default:
      return [];
  }
}

/** Every (ecosystem, package) key of an inventory: what the scan side stores to find the inventories an advisory change touches. */
export function inventoryKeys(inventory: Inventory): { ecosystem: string; package: string }[] {
  const seen = new Map<string, { ecosystem: string; package: string }>();
  for (const pkg of inventory.packages)
    for (const k of lookupKeys(inventory.os, pkg)) seen.set(`${k.ecosystem}\u0000${k.package}`, { ecosystem: k.ecosystem, package: k.package });
  return [...seen.values()];
}

// What Berth knows is installed in an image: its operating system and its
// packages, each with a purl, found in the image's files or in an SBOM
// attached to it. The inventory reader (inventory-layers.ts) produces it, the
// scan worker stores it, matching compares it with the imported advisories.

/** The purl types Berth inventories (https://github.com/package-url/purl-spec). */
export type PackageType = 'apk' | 'deb' | 'npm' | 'pypi' | 'maven' | 'golang' | 'cargo' | 'generic';

/** Which reader found a package. */
export type FoundBy = 'apk-db' | 'dpkg-db' | 'npm' | 'python' | 'java' | 'go-binary' | 'rust-audit' | 'sbom';

/** One installed package. */
export interface InstalledPackage {
  type: PackageType;
  /**
   * purl namespace: the distribution for apk and deb (`alpine`, `wolfi`,
   * `debian`), the groupId for maven, the scope for npm (`@types`), the module
   * path's leading part for golang; absent where the ecosystem has none.
   */
  namespace?: string;
  name: string;
  version: string;
  purl: string;
  /** For OS packages, the source package (dpkg `Source:`, apk origin `o:`): distribution advisories are keyed by it. */
  source?: { name: string; version?: string };
  licenses?: string[];
  /** Architecture as the package database states it (apk `A:`, dpkg `Architecture:`). */
  architecture?: string;
  /** Where in the image it was found: the database file, package.json, jar, binary; `sbom:<digest>` for an SBOM. */
  locations: string[];
  foundBy: FoundBy;
}

/** The image's operating system, from `etc/os-release` (or `usr/lib/os-release`). */
export interface ImageOs {
  /** `ID=` (alpine, wolfi, debian, ubuntu, chainguard). */
  id: string;
  versionId?: string;
  versionCodename?: string;
  idLike?: string[];
  prettyName?: string;
}

/** Something the reader did not read, and why (a bound, a hostile entry, a malformed database). */
export interface SkippedEntry {
  /** The layer's digest, when the entry was in one. */
  layer?: string;
  path: string;
  reason: string;
}

export interface Inventory {
  os?: ImageOs;
  packages: InstalledPackage[];
  skipped: SkippedEntry[];
}

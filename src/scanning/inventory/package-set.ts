// Packages keyed by purl: the same package found at several places (one npm
// package in two node_modules trees, an image package also in an SBOM) is
// one package with each location, up to MAX_LOCATIONS; missing licenses and
// source are filled from the later finding. Bounded by a package count.
import type { InstalledPackage } from './inventory.js';

export const MAX_LOCATIONS = 64;

export class PackageSet {
  private readonly byPurl = new Map<string, InstalledPackage>();
  /** Packages not added because the set was full. */
  overflow = 0;

  constructor(private readonly max: number) {}

  add(pkg: InstalledPackage): void {
    const known = this.byPurl.get(pkg.purl);
    if (!known) {
      if (this.byPurl.size >= this.max) {
        this.overflow++;
        return;
      }
      this.byPurl.set(pkg.purl, { ...pkg, locations: pkg.locations.slice(0, MAX_LOCATIONS) });
      return;
    }
    for (const loc of pkg.locations) {
      if (known.locations.length >= MAX_LOCATIONS) break;
      if (!known.locations.includes(loc)) known.locations.push(loc);
    }
    if (!known.licenses && pkg.licenses) known.licenses = pkg.licenses;
    if (!known.source && pkg.source) known.source = pkg.source;
    if (!known.architecture && pkg.architecture) known.architecture = pkg.architecture;
  }

  /** In purl order, so the same image always gives the same list. */
  list(): InstalledPackage[] {
    return [...this.byPurl.values()].sort((a, b) => (a.purl < b.purl ? -1 : a.purl > b.purl ? 1 : 0));
  }
}

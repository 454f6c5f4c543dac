// One SBOM package, named by its purl, → InstalledPackage. The purl is
// parsed and written back with packageurl-js (qualifiers in order), so the
// same package found in the image's files and in an SBOM has one purl. The
// `upstream` qualifier Syft writes for OS packages (`upstream=glibc@2.36-9`)
// becomes the source package distribution advisories are keyed by, and
// leaves the purl, which the image's own database reader does not write.
import { PackageURL } from 'packageurl-js';
import type { InstalledPackage, PackageType } from './inventory.js';
import { pep503Name } from './python-metadata.js';

const TYPES: ReadonlySet<string> = new Set<PackageType>(['apk', 'deb', 'npm', 'pypi', 'maven', 'golang', 'cargo', 'generic']);
const MAX_FIELD = 1024;

export function sbomPackage(purlText: string, version: string | undefined, licenses: string[], location: string): InstalledPackage | string {
  if (purlText.length > 4 * MAX_FIELD || purlText.includes('\u0000')) return 'purl too long or with NUL';
  let purl: PackageURL;
  try {
    purl = PackageURL.fromString(purlText);
  } catch {
    return 'invalid purl';
  }
  if (!TYPES.has(purl.type)) return `purl type ${purl.type.slice(0, 64)} is not inventoried`;
  const type = purl.type as PackageType;
  const v = purl.version ?? version;
  if (!v) return 'package without a version';
  const name = type === 'pypi' ? pep503Name(purl.name) : purl.name;
  const namespace = purl.namespace ?? undefined;
  const { upstream, ...qualifiers } = (purl.qualifiers ?? {}) as Record<string, string>;
  let canonical: string;
  try {
    canonical = new PackageURL(type, namespace, name, v, Object.keys(qualifiers).length > 0 ? qualifiers : undefined, purl.subpath ?? undefined).toString();
  } catch {
    return 'invalid purl';
  }
  const pkg: InstalledPackage = { type, name, version: v, purl: canonical, locations: [location], foundBy: 'sbom' };
  if (namespace) pkg.namespace = namespace;
  if (qualifiers.arch) pkg.architecture = qualifiers.arch;
  if (upstream) {
    const at = upstream.indexOf('@');
    pkg.source = at > 0 ? { name: upstream.slice(0, at), version: upstream.slice(at + 1) } : { name: upstream };
  }
  const kept = licenses.filter((l) => l !== '' && l !== 'NOASSERTION' && l !== 'NONE' && l.length <= MAX_FIELD).slice(0, 16);
  if (kept.length > 0) pkg.licenses = kept;
  return pkg;
}

/** `distro=alpine-3.19.1` → the OS it names, for SBOMs that list no operating-system component. */
export function osFromDistro(purls: readonly InstalledPackage[]): { id: string; versionId?: string } | undefined {
  for (const p of purls) {
    if (p.type !== 'apk' && p.type !== 'deb') continue;
    const distro = new URLSearchParams(p.purl.split('?')[1] ?? '').get('distro');
    const m = distro ? /^([a-z0-9._]+)-(.+)$/.exec(distro) : null;
    if (m) return { id: m[1], versionId: m[2] };
  }
  return undefined;
}

// OS package records → InstalledPackage with the purl the purl
// specification gives for apk and deb, once the image's OS is known:
// `pkg:apk/<os id>/<name>@<version>?arch=…&distro=<id>-<version id>` and
// `pkg:deb/<debian|ubuntu>/<name>@<version>?arch=…&distro=…`. Without an
// os-release the namespace is `alpine` or `debian` and there is no distro.
import { PackageURL } from 'packageurl-js';
import type { ImageOs, InstalledPackage } from './inventory.js';
import type { OsPackageRecord } from './os-package-record.js';

export function osPackage(format: 'apk' | 'dpkg', record: OsPackageRecord, os: ImageOs | undefined, location: string): InstalledPackage {
  const type = format === 'apk' ? 'apk' : 'deb';
  const namespace = format === 'apk' ? (os?.id ?? 'alpine') : debNamespace(os);
  const qualifiers: Record<string, string> = {};
  if (record.architecture) qualifiers.arch = record.architecture;
  const distro = distroOf(os);
  if (distro) qualifiers.distro = distro;
  const purl = new PackageURL(type, namespace, record.name, record.version, Object.keys(qualifiers).length > 0 ? qualifiers : undefined).toString();
  const pkg: InstalledPackage = {
    type,
    namespace,
    name: record.name,
    version: record.version,
    purl,
    locations: [location],
    foundBy: format === 'apk' ? 'apk-db' : 'dpkg-db',
  };
  if (record.source) pkg.source = record.source;
  if (record.licenses) pkg.licenses = record.licenses;
  if (record.architecture) pkg.architecture = record.architecture;
  return pkg;
}

function debNamespace(os: ImageOs | undefined): string {
  if (!os) return 'debian';
  if (os.id === 'debian' || os.id === 'ubuntu') return os.id;
  return os.idLike?.find((id) => id === 'ubuntu' || id === 'debian') ?? os.id;
}

/** `<id>-<VERSION_ID>`, or `<id>-<VERSION_CODENAME>` for a release without a number (Debian testing). */
function distroOf(os: ImageOs | undefined): string | undefined {
  if (!os) return undefined;
  const version = os.versionId ?? os.versionCodename;
  return version ? `${os.id}-${version}` : undefined;
}

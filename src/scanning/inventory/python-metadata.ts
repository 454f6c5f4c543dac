// Python: the core metadata of an installed distribution
// (`<name>.dist-info/METADATA`, `<name>.egg-info/PKG-INFO`): RFC 822 headers
// up to the first blank line (https://packaging.python.org/specifications/core-metadata/).
// Name, Version, and License-Expression (metadata 2.4) or License; the purl
// name is PEP 503-normalized (lowercase, runs of `-_.` → `-`).
import { PackageURL } from 'packageurl-js';
import type { InstalledPackage } from './inventory.js';

const METADATA = /(?:^|\/)[^/]+\.(?:dist-info\/METADATA|egg-info\/PKG-INFO)$/;

export function isPythonMetadata(path: string): boolean {
  return METADATA.test(path);
}

export function pep503Name(name: string): string {
  return name.replace(/[-_.]+/g, '-').toLowerCase();
}

export function pythonPackage(bytes: Buffer, path: string): InstalledPackage | string {
  const headers = new Map<string, string>();
  for (const line of bytes.toString('utf8').split(/\r?\n/)) {
    if (line.trim() === '') break;
    if (line[0] === ' ' || line[0] === '\t') continue;
    const colon = line.indexOf(':');
    if (colon <= 0) continue;
    const key = line.slice(0, colon).toLowerCase();
    if (!headers.has(key)) headers.set(key, line.slice(colon + 1).trim());
  }
  const rawName = headers.get('name');
  const version = headers.get('version');
  if (!rawName || !version) return 'Python metadata without Name and Version';
  if (rawName.length > 256 || version.length > 256 || rawName.includes('\u0000') || version.includes('\u0000'))
    return 'Python metadata with an invalid Name or Version';
  const name = pep503Name(rawName);
  let purl: string;
  try {
    purl = new PackageURL('pypi', undefined, name, version).toString();
  } catch {
    return 'Python metadata with a name that makes no purl';
  }
  const pkg: InstalledPackage = { type: 'pypi', name, version, purl, locations: [path], foundBy: 'python' };
  const license = headers.get('license-expression') || headers.get('license');
  if (license && license !== 'UNKNOWN' && license.length <= 256) pkg.licenses = [license];
  return pkg;
}

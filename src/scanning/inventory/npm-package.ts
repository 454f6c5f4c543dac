// npm: the package.json of a package directory under node_modules
// (`…/node_modules/<name>/package.json`, `…/node_modules/@scope/<name>/package.json`);
// other package.json files (a package's own sub-folders) are not packages.
// Name and version are required; license is `license` (a string or the old
// `{type}` form) or the old `licenses` list.
import { PackageURL } from 'packageurl-js';
import type { InstalledPackage } from './inventory.js';

const PACKAGE_JSON = /(?:^|\/)node_modules\/(?:@[^/]+\/)?[^/@][^/]*\/package\.json$/;

export function isNpmPackageJson(path: string): boolean {
  return PACKAGE_JSON.test(path);
}

export function npmPackage(bytes: Buffer, path: string): InstalledPackage | string {
  let doc: unknown;
  try {
    doc = JSON.parse(bytes.toString('utf8'));
  } catch {
    return 'package.json is not valid JSON';
  }
  if (typeof doc !== 'object' || doc === null) return 'package.json is not a JSON object';
  const { name, version } = doc as Record<string, unknown>;
  if (typeof name !== 'string' || typeof version !== 'string' || name === '' || version === '') return 'package.json without name and version';
  if (name.length > 214 || name.includes('\u0000') || version.length > 256 || version.includes('\u0000')) return 'package.json with an invalid name or version';
  const slash = name.startsWith('@') ? name.indexOf('/') : -1;
  const namespace = slash > 0 ? name.slice(0, slash) : undefined;
  const bare = slash > 0 ? name.slice(slash + 1) : name;
  let purl: string;
  try {
    purl = new PackageURL('npm', namespace, bare, version).toString();
  } catch {
    return 'package.json with a name that makes no purl';
  }
  const pkg: InstalledPackage = { type: 'npm', name: bare, version, purl, locations: [path], foundBy: 'npm' };
  if (namespace) pkg.namespace = namespace;
  const licenses = npmLicenses(doc as Record<string, unknown>);
  if (licenses.length > 0) pkg.licenses = licenses;
  return pkg;
}

function npmLicenses(doc: Record<string, unknown>): string[] {
  const one = (v: unknown): string | undefined =>
    typeof v === 'string'
      ? v
      : typeof v === 'object' && v !== null && typeof (v as { type?: unknown }).type === 'string'
        ? (v as { type: string }).type
        : undefined;
  const license = one(doc.license);
  if (license) return [license.slice(0, 1024)];
  if (!Array.isArray(doc.licenses)) return [];
  return doc.licenses
    .slice(0, 16)
    .map(one)
    .filter((l): l is string => l !== undefined)
    .map((l) => l.slice(0, 1024));
}

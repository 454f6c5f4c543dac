// Rust binaries built with `cargo auditable`: the `.dep-v0` ELF section holds
// zlib-compressed JSON `{"packages":[{name, version, source, kind,
// dependencies, root}]}` (https://github.com/rust-secure-code/cargo-auditable,
// the format's README). Build-time dependencies (`kind: build`) are not in
// the binary and `source: local` crates are not from a registry: both are
// left out. The JSON is inflated within a bound.
import { inflateSync } from 'node:zlib';
import { PackageURL } from 'packageurl-js';
import type { InstalledPackage } from './inventory.js';

export const RUST_AUDIT_SECTION = '.dep-v0';
/** Largest inflated dependency list read (a big program's is tens of KiB). */
const MAX_JSON = 16 * 1024 * 1024;
const MAX_CRATES = 20_000;

export function rustPackages(section: Buffer, location: string): InstalledPackage[] | string {
  let json: unknown;
  try {
    json = JSON.parse(inflateSync(section, { maxOutputLength: MAX_JSON }).toString('utf8'));
  } catch (err) {
    return `cargo-auditable section unreadable: ${err instanceof Error ? err.message : String(err)}`;
  }
  const list = (json as { packages?: unknown })?.packages;
  if (!Array.isArray(list)) return 'cargo-auditable section without a packages list';
  if (list.length > MAX_CRATES) return `cargo-auditable section with more than ${MAX_CRATES} crates`;
  const out: InstalledPackage[] = [];
  for (const item of list) {
    if (typeof item !== 'object' || item === null) continue;
    const { name, version, source, kind } = item as Record<string, unknown>;
    if (typeof name !== 'string' || typeof version !== 'string' || name === '' || version === '') continue;
    if (kind === 'build' || source === 'local') continue;
    if (name.length > 256 || version.length > 256 || name.includes('\u0000') || version.includes('\u0000')) continue;
    try {
      const purl = new PackageURL('cargo', undefined, name, version).toString();
      out.push({ type: 'cargo', name, version, purl, locations: [location], foundBy: 'rust-audit' });
    } catch {
      // A name that makes no purl is not a crates.io name.
    }
  }
  return out;
}

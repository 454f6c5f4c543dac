// SBOMs attached to an image (SPDX 2.x JSON, CycloneDX JSON) → packages with
// purls, and the merge of those with what the image's layers hold. A document
// that cannot be read, or packages without a usable purl, become skipped
// entries (counted per reason, so a large SBOM does not flood the list).
import type { ImageOs, InstalledPackage, Inventory, SkippedEntry } from './inventory.js';
import { DEFAULT_INVENTORY_LIMITS } from './inventory-limits.js';
import { readCycloneDxJson } from './cyclonedx-json.js';
import { PackageSet } from './package-set.js';
import { osFromDistro, sbomPackage } from './sbom-purl.js';
import { readSpdxJson, type SbomDocument } from './spdx-json.js';

/** Largest SBOM document read. */
export const MAX_SBOM_BYTES = 64 * 1024 * 1024;

export type SbomFormat = 'spdx-json' | 'cyclonedx-json';

export interface SbomInventory {
  os?: ImageOs;
  packages: InstalledPackage[];
  skipped: SkippedEntry[];
}

export function inventoryFromSbom(bytes: Uint8Array, format: SbomFormat, origin: string): SbomInventory {
  const location = `sbom:${origin}`;
  const fail = (reason: string): SbomInventory => ({ packages: [], skipped: [{ path: location, reason }] });
  if (bytes.byteLength > MAX_SBOM_BYTES) return fail(`SBOM larger than ${MAX_SBOM_BYTES} bytes`);
  let doc: unknown;
  try {
    doc = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(bytes));
  } catch (err) {
    return fail(`SBOM is not valid UTF-8 JSON: ${err instanceof Error ? err.message.slice(0, 200) : String(err)}`);
  }
  if (typeof doc !== 'object' || doc === null || Array.isArray(doc)) return fail('SBOM is not a JSON object');
  const max = DEFAULT_INVENTORY_LIMITS.maxPackages;
  const read: SbomDocument | string =
    format === 'spdx-json' ? readSpdxJson(doc as Record<string, unknown>, max) : readCycloneDxJson(doc as Record<string, unknown>, max);
  if (typeof read === 'string') return fail(read);
  const set = new PackageSet(max);
  const reasons = new Map<string, number>();
  for (const item of read.items) {
    const pkg = item.purl ? sbomPackage(item.purl, item.version, item.licenses, location) : 'package without a purl';
    if (typeof pkg === 'string') reasons.set(pkg, (reasons.get(pkg) ?? 0) + 1);
    else set.add(pkg);
  }
  const packages = set.list();
  const skipped = [...reasons].map(([reason, n]) => ({ path: location, reason: `${n} ${n === 1 ? 'package' : 'packages'}: ${reason}` }));
  const os = read.os ?? osFromDistro(packages);
  return os ? { os, packages, skipped } : { packages, skipped };
}

/** The image's inventory with others (its SBOMs): one package per purl with every location, the image's OS first. */
export function mergeInventories(image: Inventory, ...others: SbomInventory[]): Inventory {
  const set = new PackageSet(Number.MAX_SAFE_INTEGER);
  for (const inv of [image, ...others]) for (const pkg of inv.packages) set.add(pkg);
  const merged: Inventory = { packages: set.list(), skipped: [image, ...others].flatMap((inv) => inv.skipped) };
  const os = image.os ?? others.find((o) => o.os)?.os;
  if (os) merged.os = os;
  return merged;
}

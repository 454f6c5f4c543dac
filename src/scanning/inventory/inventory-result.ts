// After the last layer: the OS from os-release (etc/ before usr/lib/,
// symlinks followed within a bound), each database's packages with their
// purls, the language packages, deduplicated by purl and bounded in count.
import type { Finding, ImageFiles } from './image-files.js';
import type { ImageOs, Inventory } from './inventory.js';
import type { InventoryLimits } from './inventory-limits.js';
import { resolveLinkTarget } from './layer-paths.js';
import { OS_RELEASE_PATHS } from './os-release.js';
import { osPackage } from './os-packages.js';
import { PackageSet } from './package-set.js';
import type { SkipLog } from './skip-log.js';

export function inventoryResult(files: ImageFiles, limits: InventoryLimits, skip: SkipLog): Inventory {
  const all = new Map(files.entries());
  const os = imageOs(all, limits, skip);
  const packages = new PackageSet(limits.maxPackages);
  for (const [path, finding] of all) {
    if (finding.kind === 'os-db') for (const record of finding.records) packages.add(osPackage(finding.format, record, os, path));
    else if (finding.kind === 'packages') for (const pkg of finding.packages) packages.add(pkg);
    else if (finding.kind === 'link' && !(OS_RELEASE_PATHS as readonly string[]).includes(path)) {
      const target = follow(all, path, limits.maxSymlinkHops);
      if (typeof target === 'string') skip.add(path, target);
    }
  }
  if (packages.overflow > 0) skip.add('', `${packages.overflow} packages past the limit of ${limits.maxPackages} were left out`);
  const inventory: Inventory = { packages: packages.list(), skipped: skip.result() };
  if (os) inventory.os = os;
  return inventory;
}

function imageOs(all: Map<string, Finding>, limits: InventoryLimits, skip: SkipLog): ImageOs | undefined {
  for (const path of OS_RELEASE_PATHS) {
    if (!all.has(path)) continue;
    const found = follow(all, path, limits.maxSymlinkHops);
    if (typeof found === 'string') {
      skip.add(path, found);
      continue;
    }
    if (found.kind === 'os-release' && found.os) return found.os;
    skip.add(path, 'os-release without an ID');
  }
  return undefined;
}

/** What a path holds once its symlinks are followed (at most `hops`), or why it holds nothing that was read. */
function follow(all: Map<string, Finding>, path: string, hops: number): Finding | string {
  let current = path;
  for (let i = 0; i <= hops; i++) {
    const found = all.get(current);
    if (!found) return `symlink to ${current}, which holds nothing the inventory reads`;
    if (found.kind !== 'link') return found;
    const next = resolveLinkTarget(current, found.target);
    if (next === undefined) return 'symlink to the image root';
    current = next;
  }
  return `symlink chain longer than ${hops} links (a loop?)`;
}

// The one writer of stored inventories (inventory-tables.ts): replaces the
// inventory of a digest and its packages in the caller's transaction, so a
// reader sees the old inventory or the new one, never a mix.
import { nowIso } from '../../core/clock.js';
import { statementChunks } from '../../store/statement-chunks.js';
import type { Tx } from '../../store/transact.js';
import type { ScanPackagesTable } from '../inventory-tables.js';
import type { Inventory } from '../inventory/inventory.js';
import { inventoryKeys } from '../matching/package-keys.js';

/** Version of the inventory readers that wrote a row: raised when they learn something new, so older rows can be re-scanned. */
export const INVENTORY_READER_VERSION = 1;
/** Skipped entries kept per inventory; the count keeps the total. */
export const MAX_SKIPPED_STORED = 200;
/** Packages stored per inventory: the readers bound what they return; this bounds what one row set may hold. */
export const MAX_PACKAGES_STORED = 100_000;
/** Longest package name kept as a key: matching looks no longer one up. */
const MAX_KEY = 512;

export interface InventoryMeta {
  /** The SBOM referrers merged in. */
  sboms: string[];
  now?: string;
}

function packageRows(digest: string, inventory: Inventory): ScanPackagesTable[] {
  return inventory.packages.slice(0, MAX_PACKAGES_STORED).map((p, position) => ({
    digest,
    position,
    type: p.type,
    namespace: p.namespace ?? null,
    name: p.name,
    version: p.version,
    purl: p.purl,
    source_name: p.source?.name ?? null,
    source_version: p.source?.version ?? null,
    licenses: p.licenses && p.licenses.length > 0 ? JSON.stringify(p.licenses) : null,
    architecture: p.architecture ?? null,
    locations: JSON.stringify(p.locations),
    found_by: p.foundBy,
  }));
}

export async function writeInventory(tx: Tx, digest: string, inventory: Inventory, meta: InventoryMeta): Promise<void> {
  const now = meta.now ?? nowIso();
  const rows = packageRows(digest, inventory);
  const skipped = [...inventory.skipped];
  if (inventory.packages.length > rows.length)
    skipped.push({ path: '', reason: `only the first ${rows.length} of ${inventory.packages.length} packages are stored` });
  const values = {
    status: skipped.length > 0 ? 'partial' : 'complete',
    os: inventory.os ? JSON.stringify(inventory.os) : '',
    skipped: JSON.stringify(skipped.slice(0, MAX_SKIPPED_STORED)),
    skipped_count: skipped.length,
    package_count: rows.length,
    reader_version: INVENTORY_READER_VERSION,
    sboms: JSON.stringify(meta.sboms),
    update_time: now,
  };
  await tx
    .insertInto('scan_inventories')
    .values({ digest, create_time: now, ...values })
    .onConflict((oc) => oc.column('digest').doUpdateSet(values))
    .execute();
  await tx.deleteFrom('scan_packages').where('digest', '=', digest).execute();
  // Thirteen columns a row: a hundred rows a statement stays far under either database's parameter limit.
  for (const part of statementChunks(rows, 100)) await tx.insertInto('scan_packages').values(part).execute();
  await writeInventoryKeys(tx, digest, { ...inventory, packages: inventory.packages.slice(0, MAX_PACKAGES_STORED) });
}

/**
 * Replaces the (ecosystem, package) keys of a stored inventory: what the
 * advisory follower (src/scanning/reports/) looks a changed key up by. Written
 * with the inventory, so no inventory is ever without them; also by a
 * re-match of an inventory stored before keys existed (migration 0027).
 */
export async function writeInventoryKeys(tx: Tx, digest: string, inventory: Inventory): Promise<void> {
  await tx.deleteFrom('scan_inventory_keys').where('digest', '=', digest).execute();
  // What matching would not look up (matching/match-inventory.ts) is not kept either.
  const rows = inventoryKeys(inventory)
    .filter((k) => k.package !== '' && k.package.length <= MAX_KEY && !k.package.includes('\u0000'))
    .map((k) => ({ ecosystem: k.ecosystem, package: k.package, digest }));
  for (const part of statementChunks(rows, 300)) await tx.insertInto('scan_inventory_keys').values(part).execute();
}

// Reads a stored inventory back (inventory-writer.ts wrote it), for the SBOM
// endpoints and matching.
import type { Executor } from '../../store/transact.js';
import type { ImageOs, Inventory, InstalledPackage, PackageType, FoundBy, SkippedEntry } from '../inventory/inventory.js';

export interface StoredInventory extends Inventory {
  digest: string;
  status: string;
  skippedCount: number;
  sboms: string[];
  readerVersion: number;
  createTime: string;
  updateTime: string;
}

function parsed<T>(text: string | null, fallback: T): T {
  if (!text) return fallback;
  try {
    return JSON.parse(text) as T;
  } catch {
    return fallback;
  }
}

/** The inventories of `digests` that are stored, by digest. */
export async function loadInventories(db: Executor, digests: readonly string[]): Promise<Map<string, StoredInventory>> {
  const out = new Map<string, StoredInventory>();
  if (digests.length === 0) return out;
  const heads = await db
    .selectFrom('scan_inventories')
    .selectAll()
    .where('digest', 'in', [...digests])
    .execute();
  if (heads.length === 0) return out;
  const rows = await db
    .selectFrom('scan_packages')
    .selectAll()
    .where(
      'digest',
      'in',
      heads.map((h) => h.digest),
    )
    .orderBy('digest')
    .orderBy('position')
    .execute();
  for (const h of heads) {
    out.set(h.digest, {
      digest: h.digest,
      status: h.status,
      ...(h.os ? { os: parsed<ImageOs | undefined>(h.os, undefined) } : {}),
      packages: [],
      skipped: parsed<SkippedEntry[]>(h.skipped, []),
      skippedCount: h.skipped_count,
      sboms: parsed<string[]>(h.sboms, []),
      readerVersion: h.reader_version,
      createTime: h.create_time,
      updateTime: h.update_time,
    });
  }
  for (const r of rows) {
    const p: InstalledPackage = {
      type: r.type as PackageType,
      name: r.name,
      version: r.version,
      purl: r.purl,
      locations: parsed<string[]>(r.locations, []),
      foundBy: r.found_by as FoundBy,
    };
    if (r.namespace !== null) p.namespace = r.namespace;
    if (r.source_name !== null) p.source = r.source_version === null ? { name: r.source_name } : { name: r.source_name, version: r.source_version };
    if (r.licenses !== null) p.licenses = parsed<string[]>(r.licenses, []);
    if (r.architecture !== null) p.architecture = r.architecture;
    out.get(r.digest)?.packages.push(p);
  }
  return out;
}

// Reads a stored inventory back (inventory-writer.ts wrote it), for the SBOM
// endpoints and matching.
import type { Selectable } from 'kysely';
import { statementChunks } from '../../store/statement-chunks.js';
import type { Executor } from '../../store/transact.js';
import type { ScanPackagesTable } from '../inventory-tables.js';
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

/** Names per IN list (one inventory page's digests are a list of their own). */
const NAME_CHUNK = 400;

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
  for (const r of rows) out.get(r.digest)?.packages.push(packageOf(r));
  return out;
}

function packageOf(r: Selectable<ScanPackagesTable>): InstalledPackage {
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
  return p;
}

/** Some packages of a stored inventory: `packages` is sparse, each at its index in the whole inventory. */
export interface PartialInventory extends Inventory {
  digest: string;
}

/**
 * The stored packages of `digests` that may be named by `names` (a package's
 * name or source name, or, with `allOfTypes`, any package of those types),
 * at their indexes, with each inventory's OS: what a splice after an
 * advisory change needs of an image, without the packages it keeps. The
 * caller narrows them further by their lookup keys; an inventory not stored
 * is absent.
 */
export async function loadPackagesNamed(
  db: Executor,
  digests: readonly string[],
  names: readonly string[],
  allOfTypes: readonly string[] = [],
): Promise<Map<string, PartialInventory>> {
  const out = new Map<string, PartialInventory>();
  if (digests.length === 0) return out;
  for (const h of await db
    .selectFrom('scan_inventories')
    .select(['digest', 'os'])
    .where('digest', 'in', [...digests])
    .execute())
    out.set(h.digest, { digest: h.digest, ...(h.os ? { os: parsed<ImageOs | undefined>(h.os, undefined) } : {}), packages: [], skipped: [] });
  if (out.size === 0) return out;
  // One read per chunk of names, and one for the types (a package found by both is kept once).
  const reads: Array<(q: PackageQuery) => PackageQuery> = [
    ...statementChunks(names, NAME_CHUNK).map(
      (part) => (q: PackageQuery) => q.where(({ or, eb }) => or([eb('name', 'in', part), eb('source_name', 'in', part)])),
    ),
    ...(allOfTypes.length > 0 ? [(q: PackageQuery) => q.where('type', 'in', [...allOfTypes])] : []),
  ];
  for (const narrow of reads) {
    for (const r of await narrow(packagesOf(db, [...out.keys()])).execute()) {
      const packages = out.get(r.digest)?.packages;
      if (packages && packages[r.position] === undefined) packages[r.position] = packageOf(r);
    }
  }
  return out;
}

type PackageQuery = ReturnType<typeof packagesOf>;

function packagesOf(db: Executor, digests: readonly string[]) {
  return db
    .selectFrom('scan_packages')
    .selectAll()
    .where('digest', 'in', [...digests]);
}

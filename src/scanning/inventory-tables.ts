// Stored inventories (src/scanning/inventories/): content-addressed, one per
// image manifest digest whichever repos hold it, with its packages. Written
// only by inventory-writer.ts; a re-scan replaces both in one transaction.

export interface ScanInventoriesTable {
  /** The image manifest's digest. */
  digest: string;
  /** 'complete', or 'partial' when something was skipped (see skipped). */
  status: string;
  /** JSON of the ImageOs (inventory.ts), or '' when none was found. */
  os: string;
  /** JSON array of SkippedEntry, at most MAX_SKIPPED_STORED. */
  skipped: string;
  /** How many entries were skipped in all (the stored list may be cut short). */
  skipped_count: number;
  package_count: number;
  /** Which inventory reader wrote it (INVENTORY_READER_VERSION): a newer reader may re-scan older rows. */
  reader_version: number;
  /** Digests of the SBOM referrers merged in, as a JSON array. */
  sboms: string;
  create_time: string;
  update_time: string;
}

export interface ScanPackagesTable {
  digest: string;
  /** Order within the inventory. */
  position: number;
  type: string;
  namespace: string | null;
  name: string;
  version: string;
  purl: string;
  source_name: string | null;
  source_version: string | null;
  /** JSON array of license expressions, or null. */
  licenses: string | null;
  architecture: string | null;
  /** JSON array of where it was found. */
  locations: string;
  found_by: string;
}

declare module '../store/database.js' {
  interface Database {
    scan_inventories: ScanInventoriesTable;
    scan_packages: ScanPackagesTable;
  }
}

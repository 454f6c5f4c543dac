// What keeps Berth's own reports current (src/scanning/reports/, migration
// 0027): the (ecosystem, package) keys of each stored inventory, written with
// the inventory (inventory-writer.ts), by which an advisory change finds the
// images it may touch; and the cursors over logs the scan side follows.

export interface ScanInventoryKeysTable {
  /** The key matching looks the package up under (src/vulnerabilities/affected/ecosystem-keys.ts). */
  ecosystem: string;
  package: string;
  /** The inventory (image manifest digest) holding a package under that key. */
  digest: string;
}

export interface ScanCursorsTable {
  /** Which log: 'advisory-changes'. */
  name: string;
  /** Every entry with an id at or below it was handled (but those listed in gaps). */
  position: number;
  /** JSON [{id, seen}]: ids below position not yet seen, each awaited until a deadline (an id a transaction still holds). */
  gaps: string;
  update_time: string;
}

declare module '../store/database.js' {
  interface Database {
    scan_inventory_keys: ScanInventoryKeysTable;
    scan_cursors: ScanCursorsTable;
  }
}

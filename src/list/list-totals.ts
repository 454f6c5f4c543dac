// List totals are cached per query until the table changes: the key includes
// the table's version, which triggers bump on every write (migration 0002).
// Counting a large table costs far more than the rest of a list
// (docs/performance.md); the version comes from the request's
// snapshot of all versions (read once with the caller's access) or, without
// one, from one small read.
import type { Database } from '../store/database.js';
import type { Store } from '../store/store.js';
import { readTableVersions, type TableVersions } from '../store/table-versions.js';
import { setRecent } from '../core/recent-map.js';

const MAX_ENTRIES = 10_000;

/**
 * Matches up to which a total is exact everywhere; above it, on PostgreSQL,
 * a total is the planner's estimate (keyset-page.ts countMatches; docs/api.md).
 */
export const EXACT_TOTAL_LIMIT = 10_000;

export class ListTotals {
  private readonly entries = new Map<string, number>();

  async count(store: Store, table: keyof Database & string, queryKey: string, compute: () => Promise<number>, versions?: TableVersions): Promise<number> {
    const version = (versions ?? (await readTableVersions(store.db))).get(table);
    if (version === undefined) return compute();
    const key = `${table}\u0000${version}\u0000${queryKey}`;
    const hit = this.entries.get(key);
    if (hit !== undefined) return hit;
    const n = await compute();
    setRecent(this.entries, key, n, MAX_ENTRIES);
    return n;
  }
}

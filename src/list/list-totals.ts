// List totals are cached per query until the table changes: the key includes
// the table's version, which triggers bump on every write (migration 0002).
// Counting 100,000 rows costs ~10 ms; reading one version row costs ~20 µs.
import type { Database } from '../store/database.js';
import type { Store } from '../store/store.js';

const MAX_ENTRIES = 10_000;

export class ListTotals {
  private readonly entries = new Map<string, number>();

  async count(store: Store, table: keyof Database & string, queryKey: string, compute: () => Promise<number>): Promise<number> {
    const row = await store.db.selectFrom('table_versions').select('version').where('table_name', '=', table).executeTakeFirst();
    if (!row) return compute();
    const key = `${table}\u0000${row.version}\u0000${queryKey}`;
    const hit = this.entries.get(key);
    if (hit !== undefined) return hit;
    const n = await compute();
    if (this.entries.size >= MAX_ENTRIES) this.entries.delete(this.entries.keys().next().value as string);
    this.entries.set(key, n);
    return n;
  }
}

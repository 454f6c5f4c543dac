// Every versioned table's version (bumped by a trigger on each write, by any
// instance: migration 0002), read in one small query. A request reads them
// once and every cache it consults (access, list totals) checks against the
// same snapshot, so a write counts on the very next request, everywhere.
import type { Kysely } from 'kysely';
import { runCompiled } from './compiled-queries.js';
import type { Database } from './database.js';
import { directReadsOf, type DirectReads } from './direct-reads.js';

/** table name → version, as text. */
export type TableVersions = ReadonlyMap<string, string>;

// Where the database tells when any other connection committed (SQLite's
// data_version), the last snapshot is reused until it does: one pragma instead
// of a read of every row. The stamp is taken before the read, so a commit
// racing the read makes the next request read again, never keep a stale map.
const snapshots = new WeakMap<DirectReads, { stamp: number; versions: TableVersions }>();

export async function readTableVersions(db: Kysely<Database>): Promise<TableVersions> {
  const direct = directReadsOf(db);
  const stamp = direct?.dataVersion();
  if (direct && stamp !== undefined) {
    const last = snapshots.get(direct);
    if (last && last.stamp === stamp) return last.versions;
  }
  // A table's version may be spread over several rows (PostgreSQL: db-capabilities.ts shardTableVersions): their sum.
  const rows = await runCompiled<{ table_name: string; version: string | number | bigint }>(db, 'table versions', [], () =>
    db
      .selectFrom('table_versions')
      .select((eb) => ['table_name', eb.fn.sum<string>('version').as('version')])
      .groupBy('table_name'),
  );
  const versions = new Map(rows.map((r) => [r.table_name, String(r.version)]));
  if (direct && stamp !== undefined) snapshots.set(direct, { stamp, versions });
  return versions;
}

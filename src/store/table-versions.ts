// Every versioned table's version (bumped by a trigger on each write, by any
// instance: migration 0002), read in one small query. A request reads them
// once and every cache it consults (access, list totals) checks against the
// same snapshot, so a write counts on the very next request, everywhere.
import type { Kysely } from 'kysely';
import { capabilitiesOf } from './db-capabilities.js';
import { compiledQuery, readRows, runCompiled } from './compiled-queries.js';
import type { Database } from './database.js';
import { directReadsOf, type DirectReads } from './direct-reads.js';
import { SharedReads } from './shared-reads.js';

const TABLE_VERSIONS = compiledQuery('table versions');

/** table name → version, as text. */
export type TableVersions = ReadonlyMap<string, string>;

// Where the database tells when any other connection committed (SQLite's
// data_version), the last snapshot is reused until it does: one pragma instead
// of a read of every row. The stamp is taken before the read, so a commit
// racing the read makes the next request read again, never keep a stale map.
const snapshots = new WeakMap<DirectReads, { stamp: number; versions: TableVersions }>();

// Where it does not (PostgreSQL), concurrent requests share reads
// (shared-reads.ts), each still seeing every commit made before it arrived,
// and each read sums the versions again only when the database's snapshot
// moved since the last sum: the same snapshot (xmin, xmax and the
// transactions in progress) means the same transactions committed, so the
// same versions. The check and the sum are one statement
// (snapshotGatedVersionsSql); an unchanged snapshot reads no table.
const shared = new WeakMap<object, SharedReads<TableVersions>>();
const lastSums = new WeakMap<object, { snapshot: string; versions: TableVersions }>();

async function querySnapshotGatedVersions(db: Kysely<Database>, gated: string): Promise<TableVersions> {
  const last = lastSums.get(db);
  type Row = { snapshot: string; table_name: string | null; version: string | null };
  const parameters = [last?.snapshot ?? ''];
  const rows = await readRows<Row>(db, gated, parameters);
  const snapshot = rows[0].snapshot;
  if (last && snapshot === last.snapshot) return last.versions;
  const versions = new Map(rows.filter((r) => r.table_name !== null).map((r) => [r.table_name as string, String(r.version)]));
  lastSums.set(db, { snapshot, versions });
  return versions;
}

async function queryTableVersions(db: Kysely<Database>): Promise<TableVersions> {
  // A table's version may be spread over several rows (PostgreSQL: db-capabilities.ts shardTableVersions): their sum.
  const rows = await runCompiled<{ table_name: string; version: string | number | bigint }>(db, TABLE_VERSIONS, [], () =>
    db
      .selectFrom('table_versions')
      .select((eb) => ['table_name', eb.fn.sum<string>('version').as('version')])
      .groupBy('table_name'),
  );
  return new Map(rows.map((r) => [r.table_name, String(r.version)]));
}

export async function readTableVersions(db: Kysely<Database>): Promise<TableVersions> {
  const direct = directReadsOf(db);
  const stamp = direct?.dataVersion();
  if (direct && stamp !== undefined) {
    const last = snapshots.get(direct);
    if (last && last.stamp === stamp) return last.versions;
    const versions = await queryTableVersions(db);
    snapshots.set(direct, { stamp, versions });
    return versions;
  }
  if (db.isTransaction) return queryTableVersions(db); // must see its own writes
  let reads = shared.get(db);
  if (!reads) {
    reads = new SharedReads();
    shared.set(db, reads);
  }
  const gated = capabilitiesOf(db).snapshotGatedVersionsSql;
  return reads.read(() => (gated ? querySnapshotGatedVersions(db, gated) : queryTableVersions(db)));
}

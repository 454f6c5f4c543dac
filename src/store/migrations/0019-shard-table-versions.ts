// On PostgreSQL every write to a table bumped that table's one table_versions
// row from its trigger, and the row lock was held to the writer's commit: all
// writers of a table (every repo create, on every instance) took turns, and
// two writing several tables in opposite orders deadlocked. The version is
// now spread over a row per connection slot (db-capabilities.ts); a table's
// version is the sum of its rows, which grows with every committed write as
// before. SQLite has one writer: unchanged.
import type { Kysely } from 'kysely';
import type { DatabaseCapabilities } from '../db-capabilities.js';

export async function up(db: Kysely<unknown>, caps: DatabaseCapabilities): Promise<void> {
  await caps.shardTableVersions(db);
}

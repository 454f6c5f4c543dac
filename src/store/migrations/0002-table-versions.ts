import type { Kysely } from 'kysely';
import type { DatabaseCapabilities } from '../db-capabilities.js';
import { versionTable } from '../versioned-table.js';

// The version table and its PostgreSQL trigger function; the tables of the
// first schema get their versions here. Later tables call versionTable from
// their own domain's migration.
const FIRST_TABLES = ['groups', 'identities', 'roles', 'role_bindings', 'repos', 'tags'];

export async function up(db: Kysely<unknown>, caps: DatabaseCapabilities): Promise<void> {
  await db.schema
    .createTable('table_versions')
    .addColumn('table_name', caps.keyText(), (c) => c.primaryKey())
    .addColumn('version', 'bigint', (c) => c.notNull().defaultTo(0))
    .execute();
  await caps.createVersionFunction(db);
  for (const t of FIRST_TABLES) await versionTable(db, caps, t);
}

// The library catalogue (src/libraries/library-tables.ts). Indexes serve the
// list orders (name, uid, times; versions by rank within an artifact) with
// the key as tie-breaker, and the lookup of an artifact by its uid.
import type { Kysely } from 'kysely';
import type { DatabaseCapabilities } from '../../store/db-capabilities.js';
import { versionTable } from '../../store/versioned-table.js';

export async function up(db: Kysely<unknown>, caps: DatabaseCapabilities): Promise<void> {
  const t = caps.keyText();
  await db.schema
    .createTable('library_artifacts')
    .addColumn('key', t, (c) => c.primaryKey())
    .addColumn('group_uid', t, (c) => c.notNull())
    .addColumn('uid', t, (c) => c.notNull())
    .addColumn('ecosystem', t, (c) => c.notNull())
    .addColumn('name', t, (c) => c.notNull())
    .addColumn('search_name', t, (c) => c.notNull())
    .addColumn('description', 'text', (c) => c.notNull())
    .addColumn('latest_version', t, (c) => c.notNull())
    .addColumn('version_count', 'integer', (c) => c.notNull())
    .addColumn('remediated', 'integer', (c) => c.notNull())
    .addColumn('cuda_versions', t, (c) => c.notNull())
    .addColumn('create_time', t, (c) => c.notNull())
    .addColumn('update_time', t, (c) => c.notNull())
    .addForeignKeyConstraint('library_artifacts_group_fk', ['group_uid'], 'groups', ['uid'], (fk) => fk.onDelete('cascade'))
    .execute();
  const artifactIndex = (name: string, columns: string[]) => db.schema.createIndex(name).on('library_artifacts').columns(columns).execute();
  await artifactIndex('library_artifacts_name', ['name', 'key']);
  await artifactIndex('library_artifacts_ecosystem_name', ['ecosystem', 'name', 'key']);
  await artifactIndex('library_artifacts_uid', ['uid']);
  await artifactIndex('library_artifacts_group', ['group_uid', 'ecosystem']);
  await artifactIndex('library_artifacts_create_time', ['create_time', 'key']);
  await artifactIndex('library_artifacts_update_time', ['update_time', 'key']);

  await db.schema
    .createTable('library_versions')
    .addColumn('key', t, (c) => c.primaryKey())
    .addColumn('artifact_key', t, (c) => c.notNull())
    .addColumn('uid', t, (c) => c.notNull())
    .addColumn('version', t, (c) => c.notNull())
    .addColumn('version_rank', t, (c) => c.notNull())
    .addColumn('description', 'text', (c) => c.notNull())
    .addColumn('size_bytes', 'bigint', (c) => c.notNull())
    .addColumn('create_time', t, (c) => c.notNull())
    .addColumn('update_time', t, (c) => c.notNull())
    .addColumn('remediated', 'integer', (c) => c.notNull())
    .addColumn('cuda_version', t, (c) => c.notNull())
    .addForeignKeyConstraint('library_versions_artifact_fk', ['artifact_key'], 'library_artifacts', ['key'], (fk) => fk.onDelete('cascade'))
    .execute();
  const versionIndex = (name: string, columns: string[]) => db.schema.createIndex(name).on('library_versions').columns(columns).execute();
  await versionIndex('library_versions_rank', ['artifact_key', 'version_rank', 'key']);
  await versionIndex('library_versions_create_time', ['artifact_key', 'create_time', 'key']);
  await versionIndex('library_versions_update_time', ['artifact_key', 'update_time', 'key']);
  await versionTable(db, caps, 'library_artifacts');
  await versionTable(db, caps, 'library_versions');
}

// The registry's content model: blobs (global, content-addressed), the links
// that let a repo read a blob, manifests with their exact bytes, what each
// manifest lists (for pushes, platform queries and gc) and upload sessions.
// Everything scoped to a repo goes with it (ON DELETE CASCADE); a blob cannot
// be deleted while a repo links it (RESTRICT), so gc removes links first.
// The keys are declared with the tables, so both databases create them as is.
import { sql, type Kysely } from 'kysely';
import type { DatabaseCapabilities } from '../../store/db-capabilities.js';

export async function up(db: Kysely<unknown>, caps: DatabaseCapabilities): Promise<void> {
  const t = caps.keyText();
  await db.schema
    .createTable('blobs')
    .addColumn('digest', t, (c) => c.primaryKey())
    .addColumn('size', 'bigint', (c) => c.notNull())
    .addColumn('create_time', t, (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('repo_blobs')
    .addColumn('repo_uid', t, (c) => c.notNull())
    .addColumn('digest', t, (c) => c.notNull())
    .addColumn('create_time', t, (c) => c.notNull())
    .addPrimaryKeyConstraint('repo_blobs_pk', ['repo_uid', 'digest'])
    .addForeignKeyConstraint('repo_blobs_repo_uid_fk', ['repo_uid'], 'repos', ['uid'], (fk) => fk.onDelete('cascade'))
    .addForeignKeyConstraint('repo_blobs_digest_fk', ['digest'], 'blobs', ['digest'], (fk) => fk.onDelete('restrict'))
    .execute();
  await db.schema.createIndex('repo_blobs_digest').on('repo_blobs').columns(['digest']).execute();

  await db.schema
    .createTable('manifests')
    .addColumn('repo_uid', t, (c) => c.notNull())
    .addColumn('digest', t, (c) => c.notNull())
    .addColumn('media_type', t, (c) => c.notNull())
    .addColumn('artifact_type', t)
    .addColumn('subject_digest', t)
    .addColumn('size', 'bigint', (c) => c.notNull())
    .addColumn('content', caps.bytesType, (c) => c.notNull())
    .addColumn('annotations', t)
    .addColumn('os', t)
    .addColumn('architecture', t)
    .addColumn('variant', t)
    .addColumn('create_time', t, (c) => c.notNull())
    .addPrimaryKeyConstraint('manifests_pk', ['repo_uid', 'digest'])
    .addForeignKeyConstraint('manifests_repo_uid_fk', ['repo_uid'], 'repos', ['uid'], (fk) => fk.onDelete('cascade'))
    .execute();
  await db.schema.createIndex('manifests_subject').on('manifests').columns(['repo_uid', 'subject_digest']).execute();

  await db.schema
    .createTable('manifest_refs')
    .addColumn('repo_uid', t, (c) => c.notNull())
    .addColumn('manifest_digest', t, (c) => c.notNull())
    .addColumn('position', 'integer', (c) => c.notNull())
    .addColumn('child_digest', t, (c) => c.notNull())
    .addColumn('kind', t, (c) => c.notNull().check(sql`kind in ('blob', 'manifest')`))
    .addColumn('media_type', t, (c) => c.notNull())
    .addColumn('size', 'bigint', (c) => c.notNull())
    .addColumn('os', t)
    .addColumn('architecture', t)
    .addColumn('variant', t)
    .addPrimaryKeyConstraint('manifest_refs_pk', ['repo_uid', 'manifest_digest', 'position'])
    .addForeignKeyConstraint('manifest_refs_repo_uid_fk', ['repo_uid'], 'repos', ['uid'], (fk) => fk.onDelete('cascade'))
    .addForeignKeyConstraint('manifest_refs_manifest_fk', ['repo_uid', 'manifest_digest'], 'manifests', ['repo_uid', 'digest'], (fk) => fk.onDelete('cascade'))
    .execute();
  // "Does anything in this repo still list this blob or manifest?" (gc, deletes).
  await db.schema.createIndex('manifest_refs_child').on('manifest_refs').columns(['repo_uid', 'child_digest']).execute();

  await db.schema
    .createTable('uploads')
    .addColumn('id', t, (c) => c.primaryKey())
    .addColumn('repo_uid', t, (c) => c.notNull())
    .addColumn('create_time', t, (c) => c.notNull())
    .addForeignKeyConstraint('uploads_repo_uid_fk', ['repo_uid'], 'repos', ['uid'], (fk) => fk.onDelete('cascade'))
    .execute();
  await db.schema.createIndex('uploads_repo').on('uploads').columns(['repo_uid']).execute();
  await db.schema.createIndex('uploads_created').on('uploads').columns(['create_time']).execute();

  // Deleting a manifest untags it: find the repo's tags by digest.
  await db.schema.createIndex('tags_parent_digest').on('tags').columns(['parent_uid', 'digest']).execute();
}

// The first schema, as released: kept as it was so databases created with it
// and new ones agree. Later changes are migrations of their own, in the
// folder of the domain that owns the table.
import { sql, type Kysely, type CreateTableBuilder } from 'kysely';
import type { DatabaseCapabilities } from '../db-capabilities.js';

function resource(db: Kysely<unknown>, caps: DatabaseCapabilities, table: string): CreateTableBuilder<string, never> {
  const t = caps.keyText();
  return db.schema
    .createTable(table)
    .addColumn('uid', t, (c) => c.primaryKey())
    .addColumn('parent_uid', t, (c) => c.notNull())
    .addColumn('create_time', t, (c) => c.notNull())
    .addColumn('update_time', t, (c) => c.notNull());
}

export async function up(db: Kysely<unknown>, caps: DatabaseCapabilities): Promise<void> {
  const t = caps.keyText();
  await resource(db, caps, 'groups')
    .addColumn('name', t, (c) => c.notNull())
    .addColumn('description', t, (c) => c.notNull().defaultTo(''))
    .addColumn('verified', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await resource(db, caps, 'identities')
    .addColumn('name', t, (c) => c.notNull())
    .addColumn('description', t, (c) => c.notNull().defaultTo(''))
    .addColumn('company', t, (c) => c.notNull().defaultTo(''))
    .addColumn('email', t, (c) => c.notNull().defaultTo(''))
    .addColumn('relationship_type', t, (c) => c.notNull().defaultTo(''))
    .addColumn('relationship', t, (c) => c.notNull().defaultTo('{}'))
    .addColumn('issuer', t, (c) => c.notNull().defaultTo(''))
    .addColumn('subject', t, (c) => c.notNull().defaultTo(''))
    .addColumn('last_seen_time', t, (c) => c.notNull())
    .execute();
  await resource(db, caps, 'roles')
    .addColumn('name', t, (c) => c.notNull())
    .addColumn('description', t, (c) => c.notNull().defaultTo(''))
    .addColumn('capabilities', t, (c) => c.notNull().defaultTo('[]'))
    .addColumn('builtin', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await resource(db, caps, 'role_bindings')
    .addColumn('identity_uid', t, (c) => c.notNull())
    .addColumn('role_uid', t, (c) => c.notNull())
    .execute();
  await resource(db, caps, 'repos')
    .addColumn('name', t, (c) => c.notNull())
    .addColumn('description', t, (c) => c.notNull().defaultTo(''))
    .addColumn('readme', t, (c) => c.notNull().defaultTo(''))
    .execute();
  await resource(db, caps, 'tags')
    .addColumn('name', t, (c) => c.notNull())
    .addColumn('digest', t, (c) => c.notNull())
    .addColumn('deprecated', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema
    .createTable('tag_history')
    .addColumn('id', caps.serialType, (c) => (caps.serialNeedsAutoIncrement ? c.primaryKey().autoIncrement() : c.primaryKey()))
    .addColumn('repo_uid', t, (c) => c.notNull())
    .addColumn('tag_name', t, (c) => c.notNull())
    .addColumn('digest', t, (c) => c.notNull())
    .addColumn('update_time', t, (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('signing_keys')
    .addColumn('kid', t, (c) => c.primaryKey())
    .addColumn('algorithm', t, (c) => c.notNull())
    .addColumn('private_jwk', t, (c) => c.notNull())
    .addColumn('public_jwk', t, (c) => c.notNull())
    .addColumn('create_time', t, (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('settings')
    .addColumn('key', t, (c) => c.primaryKey())
    .addColumn('value', t, (c) => c.notNull())
    .execute();

  // Every sortable column pairs with uid so keyset paging is an index range scan.
  for (const table of ['groups', 'identities', 'roles', 'repos', 'tags']) {
    await db.schema.createIndex(`${table}_parent_name`).on(table).columns(['parent_uid', 'name']).execute();
    await db.schema.createIndex(`${table}_name_uid`).on(table).columns(['name', 'uid']).execute();
    await db.schema.createIndex(`${table}_created_uid`).on(table).columns(['create_time', 'uid']).execute();
    await db.schema.createIndex(`${table}_updated_uid`).on(table).columns(['update_time', 'uid']).execute();
  }
  await db.schema.createIndex('groups_root_name').on('groups').columns(['name']).where(sql.ref('parent_uid'), '=', '').unique().execute();
  await db.schema.createIndex('repos_unique_name').on('repos').columns(['parent_uid', 'name']).unique().execute();
  await db.schema.createIndex('tags_unique_name').on('tags').columns(['parent_uid', 'name']).unique().execute();
  await db.schema.createIndex('identities_issuer_subject').on('identities').columns(['issuer', 'subject']).execute();
  await db.schema.createIndex('role_bindings_identity').on('role_bindings').columns(['identity_uid']).execute();
  await db.schema.createIndex('role_bindings_role').on('role_bindings').columns(['role_uid']).execute();
  await db.schema.createIndex('role_bindings_created_uid').on('role_bindings').columns(['create_time', 'uid']).execute();
  await db.schema.createIndex('role_bindings_parent').on('role_bindings').columns(['parent_uid']).execute();
  await db.schema.createIndex('tag_history_tag').on('tag_history').columns(['repo_uid', 'tag_name', 'update_time']).execute();
}

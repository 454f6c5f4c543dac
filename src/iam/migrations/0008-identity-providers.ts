// Identity providers, their external group role mappings, and the mark on the
// role bindings a mapping made at sign in.
// - A provider lives in a group (RESTRICT: the group is not empty while it has
//   one) and names a default role (RESTRICT: a role in use is not deleted).
// - A mapping belongs to its provider (CASCADE); its role and scope group are
//   references that block their deletion (RESTRICT).
// - role_bindings.mapping_uid is NULL for every binding made otherwise; a
//   mapping's bindings go with it (CASCADE), so deleting a mapping or a
//   provider takes back the access it handed out.
// The keys are declared with the tables (and with the added column), so both
// databases create them as they are.
import type { Kysely } from 'kysely';
import type { DatabaseCapabilities } from '../../store/db-capabilities.js';
import { versionTable } from '../../store/versioned-table.js';

export async function up(db: Kysely<unknown>, caps: DatabaseCapabilities): Promise<void> {
  const t = caps.keyText();
  await db.schema
    .createTable('identity_providers')
    .addColumn('uid', t, (c) => c.primaryKey())
    .addColumn('parent_uid', t, (c) => c.notNull())
    .addColumn('name', t, (c) => c.notNull())
    .addColumn('description', t, (c) => c.notNull().defaultTo(''))
    .addColumn('default_role_uid', t, (c) => c.notNull())
    .addColumn('issuer', t, (c) => c.notNull())
    .addColumn('client_id', t, (c) => c.notNull())
    .addColumn('client_secret', t, (c) => c.notNull().defaultTo(''))
    .addColumn('additional_scopes', t, (c) => c.notNull().defaultTo('[]'))
    .addColumn('groups_claim', t, (c) => c.notNull().defaultTo(''))
    .addColumn('pkce_enabled', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('create_time', t, (c) => c.notNull())
    .addColumn('update_time', t, (c) => c.notNull())
    .addForeignKeyConstraint('identity_providers_parent_uid_fk', ['parent_uid'], 'groups', ['uid'], (fk) => fk.onDelete('restrict'))
    .addForeignKeyConstraint('identity_providers_default_role_uid_fk', ['default_role_uid'], 'roles', ['uid'], (fk) => fk.onDelete('restrict'))
    .execute();
  // Every sortable column pairs with uid so keyset paging is an index range scan.
  await db.schema.createIndex('identity_providers_parent_name').on('identity_providers').columns(['parent_uid', 'name']).execute();
  await db.schema.createIndex('identity_providers_name_uid').on('identity_providers').columns(['name', 'uid']).execute();
  await db.schema.createIndex('identity_providers_created_uid').on('identity_providers').columns(['create_time', 'uid']).execute();
  await db.schema.createIndex('identity_providers_updated_uid').on('identity_providers').columns(['update_time', 'uid']).execute();
  await db.schema.createIndex('identity_providers_default_role').on('identity_providers').columns(['default_role_uid']).execute();
  await versionTable(db, caps, 'identity_providers');

  await db.schema
    .createTable('external_group_role_mappings')
    .addColumn('uid', t, (c) => c.primaryKey())
    .addColumn('parent_uid', t, (c) => c.notNull())
    .addColumn('external_group_id', t, (c) => c.notNull())
    .addColumn('role_uid', t, (c) => c.notNull())
    .addColumn('scope_uid', t, (c) => c.notNull())
    .addColumn('create_time', t, (c) => c.notNull())
    .addColumn('update_time', t, (c) => c.notNull())
    .addForeignKeyConstraint('external_group_role_mappings_parent_uid_fk', ['parent_uid'], 'identity_providers', ['uid'], (fk) => fk.onDelete('cascade'))
    .addForeignKeyConstraint('external_group_role_mappings_role_uid_fk', ['role_uid'], 'roles', ['uid'], (fk) => fk.onDelete('restrict'))
    .addForeignKeyConstraint('external_group_role_mappings_scope_uid_fk', ['scope_uid'], 'groups', ['uid'], (fk) => fk.onDelete('restrict'))
    .execute();
  await db.schema
    .createIndex('external_group_role_mappings_unique')
    .on('external_group_role_mappings')
    .columns(['parent_uid', 'external_group_id', 'role_uid', 'scope_uid'])
    .unique()
    .execute();
  await db.schema.createIndex('external_group_role_mappings_created_uid').on('external_group_role_mappings').columns(['create_time', 'uid']).execute();
  await db.schema.createIndex('external_group_role_mappings_role').on('external_group_role_mappings').columns(['role_uid']).execute();
  await db.schema.createIndex('external_group_role_mappings_scope').on('external_group_role_mappings').columns(['scope_uid']).execute();
  await versionTable(db, caps, 'external_group_role_mappings');

  // SQLite adds a column with a REFERENCES clause when its default is NULL, as here.
  await db.schema
    .alterTable('role_bindings')
    .addColumn('mapping_uid', t, (c) => c.references('external_group_role_mappings.uid').onDelete('cascade'))
    .execute();
  await db.schema.createIndex('role_bindings_mapping').on('role_bindings').columns(['mapping_uid']).execute();
}

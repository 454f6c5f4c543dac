// Group invites, account associations and terms acceptances. All three belong
// to a group and go with it (ON DELETE CASCADE): an invite is a promise of a
// role binding there, an association and an acceptance describe the group.
// An invite also goes with its role: a code for a role that no longer exists
// could never be honoured. The keys are declared with the tables, so both
// databases create them as is.
import type { Kysely } from 'kysely';
import type { DatabaseCapabilities } from '../../store/db-capabilities.js';
import { versionTable } from '../../store/versioned-table.js';

export async function up(db: Kysely<unknown>, caps: DatabaseCapabilities): Promise<void> {
  const t = caps.keyText();
  await db.schema
    .createTable('group_invites')
    .addColumn('uid', t, (c) => c.primaryKey())
    .addColumn('parent_uid', t, (c) => c.notNull())
    .addColumn('role_uid', t, (c) => c.notNull())
    .addColumn('email', t, (c) => c.notNull().defaultTo(''))
    .addColumn('single_use', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('key_id', t, (c) => c.notNull())
    // sha256 (hex) of the whole code; the code itself is never stored.
    .addColumn('code_hash', t, (c) => c.notNull())
    .addColumn('expiration_time', t, (c) => c.notNull())
    // The latest acceptance (for a single-use invite: the one).
    .addColumn('used_time', t)
    .addColumn('used_by', t)
    .addColumn('create_time', t, (c) => c.notNull())
    .addColumn('update_time', t, (c) => c.notNull())
    .addForeignKeyConstraint('group_invites_parent_uid_fk', ['parent_uid'], 'groups', ['uid'], (fk) => fk.onDelete('cascade'))
    .addForeignKeyConstraint('group_invites_role_uid_fk', ['role_uid'], 'roles', ['uid'], (fk) => fk.onDelete('cascade'))
    .execute();
  await db.schema.createIndex('group_invites_key_id').on('group_invites').columns(['key_id']).unique().execute();
  await db.schema.createIndex('group_invites_parent').on('group_invites').columns(['parent_uid']).execute();
  await db.schema.createIndex('group_invites_role').on('group_invites').columns(['role_uid']).execute();
  await db.schema.createIndex('group_invites_created_uid').on('group_invites').columns(['create_time', 'uid']).execute();
  await db.schema.createIndex('group_invites_expiration_uid').on('group_invites').columns(['expiration_time', 'uid']).execute();

  // uid is the group's uid; parent_uid the group's parent (NULL for an
  // organization), for uidp.children_of and uidp.in_root.
  await db.schema
    .createTable('account_associations')
    .addColumn('uid', t, (c) => c.primaryKey())
    .addColumn('parent_uid', t)
    .addColumn('name', t, (c) => c.notNull())
    .addColumn('description', t, (c) => c.notNull().defaultTo(''))
    // Proto JSON of the providers (amazon, google, azure, github).
    .addColumn('providers', t, (c) => c.notNull().defaultTo('{}'))
    .addColumn('create_time', t, (c) => c.notNull())
    .addColumn('update_time', t, (c) => c.notNull())
    .addForeignKeyConstraint('account_associations_uid_fk', ['uid'], 'groups', ['uid'], (fk) => fk.onDelete('cascade'))
    .execute();
  await db.schema.createIndex('account_associations_parent').on('account_associations').columns(['parent_uid']).execute();
  await db.schema.createIndex('account_associations_name_uid').on('account_associations').columns(['name', 'uid']).execute();
  await db.schema.createIndex('account_associations_created_uid').on('account_associations').columns(['create_time', 'uid']).execute();
  await db.schema.createIndex('account_associations_updated_uid').on('account_associations').columns(['update_time', 'uid']).execute();

  // One row per group and document: the first acceptance is the one kept.
  await db.schema
    .createTable('terms_acceptances')
    .addColumn('uid', t, (c) => c.primaryKey())
    .addColumn('group_uid', t, (c) => c.notNull())
    .addColumn('doc_id', t, (c) => c.notNull())
    .addColumn('accepted_by', t, (c) => c.notNull())
    .addColumn('create_time', t, (c) => c.notNull())
    .addColumn('update_time', t, (c) => c.notNull())
    .addForeignKeyConstraint('terms_acceptances_group_uid_fk', ['group_uid'], 'groups', ['uid'], (fk) => fk.onDelete('cascade'))
    .execute();
  await db.schema.createIndex('terms_acceptances_group_doc').on('terms_acceptances').columns(['group_uid', 'doc_id']).unique().execute();
  await db.schema.createIndex('terms_acceptances_created_uid').on('terms_acceptances').columns(['create_time', 'uid']).execute();
  await db.schema.createIndex('terms_acceptances_doc_uid').on('terms_acceptances').columns(['doc_id', 'uid']).execute();

  for (const table of ['group_invites', 'account_associations', 'terms_acceptances']) await versionTable(db, caps, table);
}

// SCIM provisioning (docs/scim.md): a provider's SCIM settings and token, and
// the users and groups its SCIM client provisions.
// - identity_provider_scim: one row per provider that ever had SCIM set up;
//   the token is stored only as its SHA-256 (hex). Goes with the provider.
// - scim_users: a provisioned user, keyed by (provider, id) where id is the
//   uid of the identity it provisions (active users have one; deprovisioned
//   ones keep the row and lose the identity): userIdentityUid(the provider's
//   issuer, subject), subject being externalId (else userName) at creation. user_name_key is userName in
//   lower case: userName is unique per provider and compared without case
//   (RFC 7643 §4.1.1).
// - scim_groups and scim_group_members: groups and who is in them; a member
//   row goes with its group or its user. Membership feeds the provider's
//   external group role mappings (scim-membership.ts).
import type { Kysely } from 'kysely';
import type { DatabaseCapabilities } from '../../store/db-capabilities.js';

export async function up(db: Kysely<unknown>, caps: DatabaseCapabilities): Promise<void> {
  const t = caps.keyText();
  await db.schema
    .createTable('identity_provider_scim')
    .addColumn('provider_uid', t, (c) => c.primaryKey())
    .addColumn('enabled', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('token_hash', t)
    .addColumn('token_expire_time', t)
    .addColumn('previous_token_hash', t)
    .addColumn('previous_token_expire_time', t)
    .addColumn('revoke_time', t)
    .addColumn('etag', t, (c) => c.notNull())
    .addColumn('update_time', t, (c) => c.notNull())
    .addForeignKeyConstraint('identity_provider_scim_provider_fk', ['provider_uid'], 'identity_providers', ['uid'], (fk) => fk.onDelete('cascade'))
    .execute();

  await db.schema
    .createTable('scim_users')
    .addColumn('provider_uid', t, (c) => c.notNull())
    .addColumn('id', t, (c) => c.notNull())
    .addColumn('user_name', t, (c) => c.notNull())
    .addColumn('user_name_key', t, (c) => c.notNull())
    .addColumn('subject', t, (c) => c.notNull())
    .addColumn('external_id', t)
    .addColumn('display_name', t, (c) => c.notNull().defaultTo(''))
    .addColumn('active', 'integer', (c) => c.notNull())
    .addColumn('resource', t, (c) => c.notNull())
    .addColumn('token_groups', t, (c) => c.notNull().defaultTo('[]'))
    .addColumn('version', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('create_time', t, (c) => c.notNull())
    .addColumn('update_time', t, (c) => c.notNull())
    .addPrimaryKeyConstraint('scim_users_pk', ['provider_uid', 'id'])
    .addForeignKeyConstraint('scim_users_provider_fk', ['provider_uid'], 'identity_providers', ['uid'], (fk) => fk.onDelete('cascade'))
    .execute();
  await db.schema.createIndex('scim_users_user_name').on('scim_users').columns(['provider_uid', 'user_name_key']).unique().execute();
  await db.schema.createIndex('scim_users_external_id').on('scim_users').columns(['provider_uid', 'external_id']).execute();

  await db.schema
    .createTable('scim_groups')
    .addColumn('provider_uid', t, (c) => c.notNull())
    .addColumn('id', t, (c) => c.notNull())
    .addColumn('display_name', t, (c) => c.notNull())
    .addColumn('external_id', t)
    .addColumn('version', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('create_time', t, (c) => c.notNull())
    .addColumn('update_time', t, (c) => c.notNull())
    .addPrimaryKeyConstraint('scim_groups_pk', ['provider_uid', 'id'])
    .addForeignKeyConstraint('scim_groups_provider_fk', ['provider_uid'], 'identity_providers', ['uid'], (fk) => fk.onDelete('cascade'))
    .execute();
  await db.schema.createIndex('scim_groups_display_name').on('scim_groups').columns(['provider_uid', 'display_name']).execute();
  await db.schema.createIndex('scim_groups_external_id').on('scim_groups').columns(['provider_uid', 'external_id']).execute();

  await db.schema
    .createTable('scim_group_members')
    .addColumn('provider_uid', t, (c) => c.notNull())
    .addColumn('group_id', t, (c) => c.notNull())
    .addColumn('user_id', t, (c) => c.notNull())
    .addPrimaryKeyConstraint('scim_group_members_pk', ['provider_uid', 'group_id', 'user_id'])
    .addForeignKeyConstraint('scim_group_members_group_fk', ['provider_uid', 'group_id'], 'scim_groups', ['provider_uid', 'id'], (fk) => fk.onDelete('cascade'))
    .addForeignKeyConstraint('scim_group_members_user_fk', ['provider_uid', 'user_id'], 'scim_users', ['provider_uid', 'id'], (fk) => fk.onDelete('cascade'))
    .execute();
  await db.schema.createIndex('scim_group_members_user').on('scim_group_members').columns(['provider_uid', 'user_id']).execute();
}

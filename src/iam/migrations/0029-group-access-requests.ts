// Joining an organization by email domain, and identity metadata.
// org_domains: the email domains an operator verified for an organization
// (berth admin verify-domain); a domain belongs to one organization at most,
// and goes with it. group_access_requests: requests to join one, children of
// its group, gone with the group or with the identity that asked.
// identity_metadata: what an identity says about itself (UpdateIdentityMetadata),
// one row per identity that set any, gone with the identity.
import type { Kysely } from 'kysely';
import type { DatabaseCapabilities } from '../../store/db-capabilities.js';
import { versionTable } from '../../store/versioned-table.js';

export async function up(db: Kysely<unknown>, caps: DatabaseCapabilities): Promise<void> {
  const t = caps.keyText();
  await db.schema
    .createTable('org_domains')
    .addColumn('domain', t, (c) => c.primaryKey())
    .addColumn('group_uid', t, (c) => c.notNull())
    .addColumn('create_time', t, (c) => c.notNull())
    .addForeignKeyConstraint('org_domains_group_uid_fk', ['group_uid'], 'groups', ['uid'], (fk) => fk.onDelete('cascade'))
    .execute();
  await db.schema.createIndex('org_domains_group').on('org_domains').columns(['group_uid']).execute();

  await db.schema
    .createTable('group_access_requests')
    .addColumn('uid', t, (c) => c.primaryKey())
    .addColumn('parent_uid', t, (c) => c.notNull())
    .addColumn('identity_uid', t, (c) => c.notNull())
    .addColumn('email', t, (c) => c.notNull())
    // 'pending' | 'approved' | 'denied'
    .addColumn('state', t, (c) => c.notNull())
    .addColumn('role_binding_uid', t, (c) => c.notNull().defaultTo(''))
    .addColumn('decided_by', t, (c) => c.notNull().defaultTo(''))
    .addColumn('decide_time', t)
    .addColumn('create_time', t, (c) => c.notNull())
    .addColumn('update_time', t, (c) => c.notNull())
    .addForeignKeyConstraint('group_access_requests_parent_uid_fk', ['parent_uid'], 'groups', ['uid'], (fk) => fk.onDelete('cascade'))
    .addForeignKeyConstraint('group_access_requests_identity_uid_fk', ['identity_uid'], 'identities', ['uid'], (fk) => fk.onDelete('cascade'))
    .execute();
  await db.schema.createIndex('group_access_requests_parent_identity').on('group_access_requests').columns(['parent_uid', 'identity_uid']).execute();
  await db.schema.createIndex('group_access_requests_identity').on('group_access_requests').columns(['identity_uid']).execute();
  await db.schema.createIndex('group_access_requests_created_uid').on('group_access_requests').columns(['create_time', 'uid']).execute();
  await db.schema.createIndex('group_access_requests_updated_uid').on('group_access_requests').columns(['update_time', 'uid']).execute();
  await versionTable(db, caps, 'group_access_requests');

  await db.schema
    .createTable('identity_metadata')
    .addColumn('identity_uid', t, (c) => c.primaryKey())
    // proto JSON of IdentityMetadata's own fields (not uid, name, company)
    .addColumn('fields', t, (c) => c.notNull())
    .addColumn('update_time', t, (c) => c.notNull())
    .addForeignKeyConstraint('identity_metadata_identity_uid_fk', ['identity_uid'], 'identities', ['uid'], (fk) => fk.onDelete('cascade'))
    .execute();
}

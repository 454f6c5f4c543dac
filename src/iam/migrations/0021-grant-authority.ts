// Who vouches for a role binding made later, on someone else's behalf: the
// creator of a group invite, the identity that set an identity provider's
// default role (create, or an update checked against it), the creator of an
// external group role mapping. Acceptance and sign in grant the role only
// while that identity still exists and could make the binding itself.
// The columns reference identities ON DELETE SET NULL: a deleted identity
// vouches for nothing, and rows made before this migration (NULL: nobody is
// recorded) grant nothing until they are made again (docs/identity.md).
// SQLite adds a column with a REFERENCES clause when its default is NULL, as here.
import type { Kysely } from 'kysely';
import type { DatabaseCapabilities } from '../../store/db-capabilities.js';

export async function up(db: Kysely<unknown>, caps: DatabaseCapabilities): Promise<void> {
  const t = caps.keyText();
  for (const [table, column] of [
    ['group_invites', 'created_by'],
    ['identity_providers', 'default_role_by'],
    ['external_group_role_mappings', 'created_by'],
  ] as const) {
    await db.schema
      .alterTable(table)
      .addColumn(column, t, (c) => c.references('identities.uid').onDelete('set null'))
      .execute();
    await db.schema.createIndex(`${table}_${column}`).on(table).columns([column]).execute();
  }
}

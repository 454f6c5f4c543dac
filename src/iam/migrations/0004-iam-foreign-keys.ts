// IAM's references become foreign keys, so the database itself keeps them
// whole: roots, root-level identities and built-in roles get a NULL parent
// (was ''), every other parent must exist, and nothing can leave a binding
// pointing at nothing. A group with anything in it cannot be deleted
// (RESTRICT); its own role bindings, and an identity's, go with it (CASCADE).
import { sql, type Kysely } from 'kysely';
import type { DatabaseCapabilities } from '../../store/db-capabilities.js';
import { addForeignKeys } from '../../store/foreign-keys.js';

export async function up(db: Kysely<unknown>, caps: DatabaseCapabilities): Promise<void> {
  await addForeignKeys(db, caps, [
    { table: 'groups', optional: ['parent_uid'], keys: [{ column: 'parent_uid', references: 'groups', onDelete: 'restrict' }] },
    { table: 'identities', optional: ['parent_uid'], keys: [{ column: 'parent_uid', references: 'groups', onDelete: 'restrict' }] },
    { table: 'roles', optional: ['parent_uid'], keys: [{ column: 'parent_uid', references: 'groups', onDelete: 'restrict' }] },
    {
      table: 'role_bindings',
      keys: [
        { column: 'parent_uid', references: 'groups', onDelete: 'cascade' },
        { column: 'identity_uid', references: 'identities', onDelete: 'cascade' },
        { column: 'role_uid', references: 'roles', onDelete: 'restrict' },
      ],
    },
  ]);
  // Root names are unique among roots: the partial index follows the new "no parent".
  await sql`drop index groups_root_name`.execute(db);
  await sql`create unique index groups_root_name on groups (name) where parent_uid is null`.execute(db);
}

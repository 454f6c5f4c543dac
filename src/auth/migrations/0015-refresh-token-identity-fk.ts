// A refresh token belongs to its identity: deleting the identity deletes its
// refresh tokens in the same statement (CASCADE), instead of leaving them to
// be refused, and removed, only when someone presents one.
import type { Kysely } from 'kysely';
import type { DatabaseCapabilities } from '../../store/db-capabilities.js';
import { addForeignKeys } from '../../store/foreign-keys.js';

export async function up(db: Kysely<unknown>, caps: DatabaseCapabilities): Promise<void> {
  await addForeignKeys(db, caps, [{ table: 'refresh_tokens', keys: [{ column: 'identity_uid', references: 'identities', onDelete: 'cascade' }] }]);
}

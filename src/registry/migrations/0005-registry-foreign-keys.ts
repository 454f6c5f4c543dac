// The registry's references become foreign keys: a repo's group must exist
// and cannot be deleted while the repo is there; tags and tag history go
// with their repo.
import type { Kysely } from 'kysely';
import type { DatabaseCapabilities } from '../../store/db-capabilities.js';
import { addForeignKeys } from '../../store/foreign-keys.js';

export async function up(db: Kysely<unknown>, caps: DatabaseCapabilities): Promise<void> {
  await addForeignKeys(db, caps, [
    { table: 'repos', keys: [{ column: 'parent_uid', references: 'groups', onDelete: 'restrict' }] },
    { table: 'tags', keys: [{ column: 'parent_uid', references: 'repos', onDelete: 'cascade' }] },
    { table: 'tag_history', keys: [{ column: 'repo_uid', references: 'repos', onDelete: 'cascade' }] },
  ]);
}

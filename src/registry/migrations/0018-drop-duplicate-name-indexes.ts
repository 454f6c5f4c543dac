// repos and tags each had two indexes on (parent_uid, name): a plain one from
// the first schema's per-table loop and the unique one. The unique index
// serves every lookup the plain one did; the plain one only cost a b-tree
// write (a page in the WAL) on every insert and rename.
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const table of ['repos', 'tags']) await db.schema.dropIndex(`${table}_parent_name`).ifExists().execute();
}

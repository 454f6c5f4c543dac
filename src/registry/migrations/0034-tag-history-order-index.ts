// A tag's history is read oldest first, ordered by (update_time, id)
// (tags/tag-history.ts). tag_history_tag (repo, tag, time) did not hold the
// id, so PostgreSQL read every record of the tag and sorted them for each
// page: a tag moved 100,000 times cost a sort of 100,000 rows per request
// (docs/performance.md). With the id in the index a page is a range walk that
// stops at its limit. (SQLite's index already ended with the rowid, which is
// the id: the same order, now written out.) The new index serves every
// lookup the old one did, so that one goes.
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.createIndex('tag_history_tag_order').on('tag_history').columns(['repo_uid', 'tag_name', 'update_time', 'id']).execute();
  await db.schema.dropIndex('tag_history_tag').execute();
}

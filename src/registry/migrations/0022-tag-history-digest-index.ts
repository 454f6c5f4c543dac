// A free-tier token may pull any digest its tags pointed to at any time
// (src/oci/free-tier.ts), so every anonymous pull by digest asks "did one of
// these tags of this repo ever point here?". tag_history_tag (repo, tag,
// time) answers only by reading the tags' whole history; this index answers
// it with one probe per digest, and holds the tag name so the table is not read.
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.createIndex('tag_history_digest').on('tag_history').columns(['repo_uid', 'digest', 'tag_name']).execute();
}

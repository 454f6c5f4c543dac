// When a client last pushed each manifest and each blob into a repo: gc's
// grace period runs from it (src/registry/gc/). create_time stays the time
// the row was first written (the API shows a manifest's); push_time moves
// every time a client puts the same manifest again, or uploads or mounts a
// blob the repo already links, so content a client was just told is stored
// is never older than the grace when gc looks at it. Existing rows start at
// their create_time.
import { type Kysely, sql } from 'kysely';
import type { DatabaseCapabilities } from '../../store/db-capabilities.js';

export async function up(db: Kysely<unknown>, caps: DatabaseCapabilities): Promise<void> {
  for (const table of ['manifests', 'repo_blobs']) {
    await db.schema
      .alterTable(table)
      .addColumn('push_time', caps.keyText(), (c) => c.notNull().defaultTo(''))
      .execute();
    await sql`update ${sql.table(table)} set push_time = create_time`.execute(db);
  }
}

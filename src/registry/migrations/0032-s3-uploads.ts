// Upload state of the S3 blob driver (src/registry/blobs/s3-upload-state.ts):
// an upload started on one instance continues on another, or after a restart,
// from what this row records — never from the object store's own listing.
import type { Kysely } from 'kysely';
import type { DatabaseCapabilities } from '../../store/db-capabilities.js';

export async function up(db: Kysely<unknown>, caps: DatabaseCapabilities): Promise<void> {
  const t = caps.keyText();
  await db.schema
    .createTable('s3_uploads')
    .addColumn('id', t, (c) => c.primaryKey())
    .addColumn('location', t, (c) => c.notNull())
    .addColumn('started', t, (c) => c.notNull())
    .addColumn('size', 'bigint', (c) => c.notNull())
    .addColumn('multipart_id', 'text')
    .addColumn('parts', 'text', (c) => c.notNull())
    .addColumn('tail_size', 'bigint', (c) => c.notNull())
    .addColumn('lease', 'text')
    .addColumn('lease_until', t)
    .execute();
  await db.schema.createIndex('s3_uploads_location').on('s3_uploads').columns(['location', 'id']).execute();
}

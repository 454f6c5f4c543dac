// Lifecycle data for ListEolTags (src/registry/eol/eol-tables.ts). Releases
// and names go with their product; a mapping may name a product not imported
// (yet), so it is no foreign key.
import type { Kysely } from 'kysely';
import type { DatabaseCapabilities } from '../../store/db-capabilities.js';

export async function up(db: Kysely<unknown>, caps: DatabaseCapabilities): Promise<void> {
  const t = caps.keyText();
  await db.schema
    .createTable('eol_products')
    .addColumn('name', t, (c) => c.primaryKey())
    .addColumn('aliases', 'text', (c) => c.notNull())
    .addColumn('source_ref', 'text', (c) => c.notNull())
    .addColumn('source_sha', 'text', (c) => c.notNull())
    .addColumn('update_time', t, (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('eol_releases')
    .addColumn('product', t, (c) => c.notNull().references('eol_products.name').onDelete('cascade'))
    .addColumn('name', t, (c) => c.notNull())
    .addColumn('position', 'integer', (c) => c.notNull())
    .addColumn('release_date', 'text', (c) => c.notNull())
    .addColumn('eol_date', 'text', (c) => c.notNull())
    .addColumn('eol', 'integer', (c) => c.notNull())
    .addColumn('lts', 'integer', (c) => c.notNull())
    .addColumn('lts_from', 'text', (c) => c.notNull())
    .addColumn('latest_version', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('eol_releases_pkey', ['product', 'name'])
    .execute();
  await db.schema
    .createTable('eol_product_names')
    .addColumn('name', t, (c) => c.notNull())
    .addColumn('product', t, (c) => c.notNull().references('eol_products.name').onDelete('cascade'))
    .addColumn('own', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('eol_product_names_pkey', ['name', 'product'])
    .execute();
  await db.schema
    .createTable('eol_image_products')
    .addColumn('image', t, (c) => c.primaryKey())
    .addColumn('product', t, (c) => c.notNull())
    .execute();
}

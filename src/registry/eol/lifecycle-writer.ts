// The one writer of lifecycle data: replaces a product's releases and names
// when its file changed (a different sha256), leaves it alone otherwise, so a
// re-import changes nothing. Mappings are set and removed here too.
import { nowIso } from '../../core/clock.js';
import type { Tx } from '../../store/transact.js';
import type { LifecycleProduct } from './lifecycle-product.js';

export type ProductChange = 'added' | 'changed' | 'unchanged';

export async function writeProduct(tx: Tx, p: LifecycleProduct): Promise<ProductChange> {
  const stored = await tx.selectFrom('eol_products').select('source_sha').where('name', '=', p.name).executeTakeFirst();
  if (stored?.source_sha === p.sourceSha) return 'unchanged';
  if (stored) {
    await tx.deleteFrom('eol_releases').where('product', '=', p.name).execute();
    await tx.deleteFrom('eol_product_names').where('product', '=', p.name).execute();
    await tx
      .updateTable('eol_products')
      .set({ aliases: JSON.stringify(p.aliases), source_ref: p.sourceRef, source_sha: p.sourceSha, update_time: nowIso() })
      .where('name', '=', p.name)
      .execute();
  } else {
    await tx
      .insertInto('eol_products')
      .values({ name: p.name, aliases: JSON.stringify(p.aliases), source_ref: p.sourceRef, source_sha: p.sourceSha, update_time: nowIso() })
      .execute();
  }
  const names = [{ name: p.name, product: p.name, own: 1 }, ...p.aliases.filter((a) => a !== p.name).map((a) => ({ name: a, product: p.name, own: 0 }))];
  await tx.insertInto('eol_product_names').values(names).execute();
  // Batches keep each statement under SQLite's bound on parameters.
  for (let i = 0; i < p.releases.length; i += 100) {
    const rows = p.releases.slice(i, i + 100).map((r, j) => ({
      product: p.name,
      name: r.name,
      position: i + j,
      release_date: r.releaseDate,
      eol_date: r.eolDate,
      eol: r.eol ? 1 : 0,
      lts: r.lts ? 1 : 0,
      lts_from: r.ltsFrom,
      latest_version: r.latestVersion,
    }));
    await tx.insertInto('eol_releases').values(rows).execute();
  }
  return stored ? 'changed' : 'added';
}

/** Maps repos named `image` (their last path segment) to `product`; '' removes the mapping. */
export async function setImageProduct(tx: Tx, image: string, product: string): Promise<void> {
  await tx.deleteFrom('eol_image_products').where('image', '=', image).execute();
  if (product !== '') await tx.insertInto('eol_image_products').values({ image, product }).execute();
}

// Reads for ListEolTags: which product each image name maps to, the
// products' releases, when tags last moved, and whether a repo's tags span
// more than one release stream. Each read takes the page's keys at once.
import type { Executor } from '../../store/transact.js';
import { TAG_REMOVED } from '../tags/tag-writer.js';
import type { EolReleasesTable } from './eol-tables.js';
import { streamOf } from './stream-match.js';

export interface ProductReleases {
  name: string;
  sourceRef: string;
  sourceSha: string;
  /** Newest first. */
  releases: EolReleasesTable[];
}

/** A repo's image name: the last segment of its path ("acme/base/node" → "node"). */
export function imageNameOf(repoName: string): string {
  return repoName.slice(repoName.lastIndexOf('/') + 1);
}

/** image name → product: an explicit mapping first, then a product's own name, then an alias (the smallest product name if several). */
export async function productsForImages(ex: Executor, images: readonly string[]): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  if (images.length === 0) return out;
  const mapped = await ex.selectFrom('eol_image_products').select(['image', 'product']).where('image', 'in', images).execute();
  for (const m of mapped) out.set(m.image, m.product);
  const rest = images.filter((i) => !out.has(i));
  if (rest.length === 0) return out;
  const named = await ex
    .selectFrom('eol_product_names')
    .select(['name', 'product'])
    .where('name', 'in', rest)
    .orderBy('own', 'desc')
    .orderBy('product')
    .execute();
  for (const n of named) if (!out.has(n.name)) out.set(n.name, n.product);
  return out;
}

export async function releasesOf(ex: Executor, products: readonly string[]): Promise<Map<string, ProductReleases>> {
  const out = new Map<string, ProductReleases>();
  if (products.length === 0) return out;
  const rows = await ex.selectFrom('eol_products').select(['name', 'source_ref', 'source_sha']).where('name', 'in', products).execute();
  for (const r of rows) out.set(r.name, { name: r.name, sourceRef: r.source_ref, sourceSha: r.source_sha, releases: [] });
  const releases = await ex.selectFrom('eol_releases').selectAll().where('product', 'in', products).orderBy('product').orderBy('position').execute();
  for (const r of releases) out.get(r.product)?.releases.push(r);
  return out;
}

/** "<repo uid> <tag name>" → when the tag's current digest was set (its newest history record). */
export async function lastMoves(ex: Executor, tags: ReadonlyArray<{ parent_uid: string; name: string }>): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  if (tags.length === 0) return out;
  const rows = await ex
    .selectFrom('tag_history')
    .select(['repo_uid', 'tag_name'])
    .select((eb) => eb.fn.max('update_time').as('moved'))
    .where('repo_uid', 'in', [...new Set(tags.map((t) => t.parent_uid))])
    .where('tag_name', 'in', [...new Set(tags.map((t) => t.name))])
    .where('digest', '<>', TAG_REMOVED)
    .groupBy(['repo_uid', 'tag_name'])
    .execute();
  for (const r of rows) out.set(`${r.repo_uid} ${r.tag_name}`, r.moved as string);
  return out;
}

/** Tag names read per repo to tell one release track from several, in chunks; past the bound the repo counts as having several. */
const TRACK_SCAN = 5000;
const TRACK_CHUNK = 500;

/** Whether the repo's tags map to two or more of `releases`' streams (stops reading at the second). */
export async function hasMultipleTracks(ex: Executor, repoUid: string, releases: readonly EolReleasesTable[]): Promise<boolean> {
  let first: string | undefined;
  let after = '';
  for (let read = 0; read < TRACK_SCAN; read += TRACK_CHUNK) {
    const names = await ex
      .selectFrom('tags')
      .select('name')
      .where('parent_uid', '=', repoUid)
      .where('name', '>', after)
      .orderBy('name')
      .limit(TRACK_CHUNK)
      .execute();
    for (const { name } of names) {
      if (name.startsWith('sha256-')) continue; // referrer tags belong to no stream
      const s = streamOf(name, releases)?.name;
      if (s === undefined) continue;
      if (first === undefined) first = s;
      else if (s !== first) return true;
    }
    if (names.length < TRACK_CHUNK) return false;
    after = names[names.length - 1].name;
  }
  return true;
}

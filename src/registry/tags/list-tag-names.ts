// The distribution API's tag list: a repo's tag names in lexical (byte)
// order, `n` at a time after `last`. Every tag is listed, referrer-fallback
// tags included, as the distribution spec's list shows them.
import type { Executor } from '../../store/transact.js';

/** The most names one call returns, whatever `n` asks. */
export const MAX_TAG_NAMES = 10_000;

export interface TagNamesPage {
  names: string[];
  /** More names follow the last one returned (the listener's Link header). */
  more: boolean;
}

/** Up to `n` tag names of the repo after `last` (exclusive), in order. */
export async function listTagNames(ex: Executor, repoUid: string, n: number = MAX_TAG_NAMES, last?: string): Promise<TagNamesPage> {
  const limit = Math.max(0, Math.min(Math.trunc(Number.isFinite(n) ? n : MAX_TAG_NAMES), MAX_TAG_NAMES));
  if (limit === 0) return { names: [], more: false };
  let q = ex.selectFrom('tags').select('name').where('parent_uid', '=', repoUid);
  if (last !== undefined && last !== '') q = q.where('name', '>', last);
  const rows = await q
    .orderBy('name')
    .limit(limit + 1)
    .execute();
  return { names: rows.slice(0, limit).map((r) => r.name), more: rows.length > limit };
}

// The tag history read, shared by the registry's history route and the v1 API's
// ListTagHistory. Temporary home: the registry content model is adding
// historyOf() in src/registry/content/history.ts, into which this folds.
// Records are the digests a tag pointed to, oldest first; `start` keeps those
// at or after it, `end` those before it (both RFC 3339 text with three
// fractional digits and Z, as stored, so they compare as text on every database).
import '../registry/registry-tables.js';
import type { Executor } from '../store/transact.js';

/** At most this many records per request (the contract's limit). */
export const TAG_HISTORY_LIMIT = 1000;

export interface TagHistoryRecord {
  /** Stored RFC 3339 text. */
  updateTime: string;
  digest: string;
}

export interface TagHistoryWindow {
  start?: string;
  end?: string;
}

export async function readTagHistory(db: Executor, repoUid: string, tagName: string, window: TagHistoryWindow): Promise<TagHistoryRecord[]> {
  let q = db.selectFrom('tag_history').select(['update_time', 'digest']).where('repo_uid', '=', repoUid).where('tag_name', '=', tagName);
  if (window.start !== undefined) q = q.where('update_time', '>=', window.start);
  if (window.end !== undefined) q = q.where('update_time', '<', window.end);
  const rows = await q.orderBy('update_time').orderBy('id').limit(TAG_HISTORY_LIMIT).execute();
  return rows.map((r) => ({ updateTime: r.update_time, digest: r.digest }));
}

/** Whether the tag exists now or ever had a record (history outlives a deleted tag). */
export async function tagKnown(db: Executor, repoUid: string, tagName: string): Promise<boolean> {
  const tag = await db.selectFrom('tags').select('uid').where('parent_uid', '=', repoUid).where('name', '=', tagName).executeTakeFirst();
  if (tag) return true;
  const record = await db.selectFrom('tag_history').select('id').where('repo_uid', '=', repoUid).where('tag_name', '=', tagName).limit(1).executeTakeFirst();
  return record !== undefined;
}

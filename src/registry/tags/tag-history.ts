// Reading a tag's history: the digests it pointed to, oldest first, as the
// tag history endpoint serves them (`start` keeps records at or after it,
// `end` keeps records before it, at most 1000 per call; a caller reaches later
// records by moving `start`). Rows are written only by tag-writer.ts.
import { compiledQuery, runCompiled } from '../../store/compiled-queries.js';
import type { Executor } from '../../store/transact.js';
import { TAG_REMOVED } from './tag-writer.js';

const STORED_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

const HISTORY = compiledQuery('tag history');

/** Records per call, as the contract states. */
export const MAX_HISTORY = 1000;

export interface TagHistoryEntry {
  /** The digest the tag pointed to from updateTime on; TAG_REMOVED ('') when it was removed then. */
  digest: string;
  /** RFC 3339 UTC with milliseconds. */
  updateTime: string;
}

/** The window of a history request; times as Dates or in the stored text form (RFC 3339 UTC with milliseconds). */
export interface HistoryWindow {
  /** Keep records at or after this time. */
  start?: Date | string;
  /** Keep records before this time. */
  end?: Date | string;
}

export interface HistoryQuery extends HistoryWindow {
  /** At most this many (default and maximum MAX_HISTORY). */
  limit?: number;
  /** Include removals (digest ''); left out by default: the endpoint serves pinnable digests. */
  includeRemovals?: boolean;
}

function iso(d: Date | string, name: string): string {
  if (typeof d === 'string') {
    if (!STORED_TIME.test(d)) throw new RangeError(`${name} is not in the stored time form`);
    return d;
  }
  if (Number.isNaN(d.getTime())) throw new RangeError(`${name} is not a valid time`);
  return d.toISOString(); // the stored form, so text comparison is time comparison
}

/** The repo's history of tag `tagName`, oldest first. */
export async function historyOf(ex: Executor, repoUid: string, tagName: string, q: HistoryQuery = {}): Promise<TagHistoryEntry[]> {
  const limit = Math.max(0, Math.min(Math.trunc(q.limit ?? MAX_HISTORY), MAX_HISTORY));
  if (limit === 0) return [];
  const start = q.start ? iso(q.start, 'start') : undefined;
  const end = q.end ? iso(q.end, 'end') : undefined;
  const values: unknown[] = [repoUid, tagName, limit];
  if (start !== undefined) values.push(start);
  if (end !== undefined) values.push(end);
  const shape = `${start !== undefined ? 'start ' : ''}${end !== undefined ? 'end ' : ''}${q.includeRemovals ? 'with removals' : ''}`;
  const rows = await runCompiled<{ digest: string; update_time: string }>(ex, { handle: HISTORY, shape }, values, (vs) => {
    let query = ex
      .selectFrom('tag_history')
      .select(['digest', 'update_time'])
      .where('repo_uid', '=', vs[0] as string)
      .where('tag_name', '=', vs[1] as string);
    let at = 3;
    if (start !== undefined) query = query.where('update_time', '>=', vs[at++] as string);
    if (end !== undefined) query = query.where('update_time', '<', vs[at++] as string);
    if (!q.includeRemovals) query = query.where('digest', '<>', TAG_REMOVED);
    return query
      .orderBy('update_time')
      .orderBy('id')
      .limit(vs[2] as number);
  });
  return rows.map((r) => ({ digest: r.digest, updateTime: r.update_time }));
}

/** Whether the tag exists now or ever had a record (history outlives a deleted tag). */
export async function tagKnown(ex: Executor, repoUid: string, tagName: string): Promise<boolean> {
  const tag = await ex.selectFrom('tags').select('uid').where('parent_uid', '=', repoUid).where('name', '=', tagName).executeTakeFirst();
  if (tag) return true;
  const record = await ex.selectFrom('tag_history').select('id').where('repo_uid', '=', repoUid).where('tag_name', '=', tagName).limit(1).executeTakeFirst();
  return record !== undefined;
}

// What a tag pointed to at an instant: the newest history record before it.
// Read by the reports that follow a tag day by day (the vulnerability counts
// and resolved vulnerabilities of src/scanning), which page the records inside
// their range with historyOf and need the one in effect when it starts.
import type { Executor } from '../../store/transact.js';
import type { TagHistoryEntry } from './tag-history.js';

/** The newest record strictly before `before` (stored time form), removals included; undefined when none. */
export async function tagRecordBefore(ex: Executor, repoUid: string, tagName: string, before: string): Promise<TagHistoryEntry | undefined> {
  const row = await ex
    .selectFrom('tag_history')
    .select(['digest', 'update_time'])
    .where('repo_uid', '=', repoUid)
    .where('tag_name', '=', tagName)
    .where('update_time', '<', before)
    .orderBy('update_time', 'desc')
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirst();
  return row ? { digest: row.digest, updateTime: row.update_time } : undefined;
}

/** The names of the repo's tags that have a history record before `before`, sorted, at most `limit`. */
export async function tagNamesBefore(ex: Executor, repoUid: string, before: string, limit: number): Promise<string[]> {
  const rows = await ex
    .selectFrom('tag_history')
    .select('tag_name')
    .distinct()
    .where('repo_uid', '=', repoUid)
    .where('update_time', '<', before)
    .orderBy('tag_name')
    .limit(limit)
    .execute();
  return rows.map((r) => r.tag_name);
}

// When the advisories last changed, as a report's vulnerability database
// time: the time of a change log entry (src/vulnerabilities/affected/), which
// every import batch and API write that changes what matches appends to.
import type { Executor } from '../../store/transact.js';
import { lastAdvisoryChange } from '../../vulnerabilities/affected/advisory-changes.js';

/** The time of change `id`; undefined for 0 or an id no longer stored. */
export async function advisoryChangeTime(db: Executor, id: number): Promise<string | undefined> {
  if (id <= 0) return undefined;
  const row = await db.selectFrom('advisory_changes').select('change_time').where('id', '=', id).executeTakeFirst();
  return row?.change_time;
}

/** The time of the newest change; undefined before any advisory was stored. */
export async function newestAdvisoryTime(db: Executor): Promise<string | undefined> {
  return advisoryChangeTime(db, await lastAdvisoryChange(db));
}

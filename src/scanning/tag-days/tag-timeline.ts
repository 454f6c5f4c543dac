// A tag's history over a range of UTC days, as the day-by-day reports read
// it: the record in effect when the range starts and every record inside it.
// From those, the digest the tag pointed to at the end of each day (none
// before the tag existed or while it was removed) and the moves made on it.
import { tagRecordBefore } from '../../registry/tags/tag-at.js';
import { historyOf, MAX_HISTORY, type TagHistoryEntry } from '../../registry/tags/tag-history.js';
import { TAG_REMOVED } from '../../registry/tags/tag-writer.js';
import type { Executor } from '../../store/transact.js';
import { dayOfIso, dayStartIso } from './utc-days.js';

/** Most records read inside one range (a tag rebuilt hourly for a year has 8,784). */
export const MAX_RANGE_RECORDS = 20_000;

/** A tag moving from one digest to another ('' = absent: before it existed, or removed). */
export interface TagMove {
  day: number;
  from: string;
  to: string;
}

export interface TagTimeline {
  /** The digest at the end of each day of the range ('' when the tag did not point anywhere). */
  endOfDay: Map<number, string>;
  /** Every digest the tag pointed to during each day (at its start and after each move). */
  during: Map<number, string[]>;
  moves: TagMove[];
  /** True when the range held more than MAX_RANGE_RECORDS records and the rest were not read (callers refuse the request). */
  truncated: boolean;
}

async function recordsWithin(
  ex: Executor,
  repoUid: string,
  tag: string,
  start: string,
  end: string,
): Promise<{ records: TagHistoryEntry[]; truncated: boolean }> {
  const records: TagHistoryEntry[] = [];
  let from = start;
  for (;;) {
    const page = await historyOf(ex, repoUid, tag, { start: from, end, includeRemovals: true });
    // The next page starts at the last record's millisecond (pages are in (time, id) order):
    // the records of that millisecond already read come first again.
    const again = from === start ? 0 : records.filter((r) => r.updateTime === from).length;
    const fresh = page.slice(again);
    records.push(...fresh);
    if (records.length >= MAX_RANGE_RECORDS) return { records: records.slice(0, MAX_RANGE_RECORDS), truncated: true };
    if (page.length < MAX_HISTORY || fresh.length === 0) return { records, truncated: false };
    from = page[page.length - 1].updateTime;
  }
}

export async function tagTimeline(ex: Executor, repoUid: string, tag: string, days: readonly number[]): Promise<TagTimeline> {
  const first = days[0];
  const last = days[days.length - 1];
  const start = dayStartIso(first);
  const before = await tagRecordBefore(ex, repoUid, tag, start);
  const { records, truncated } = await recordsWithin(ex, repoUid, tag, start, dayStartIso(last + 1));
  const endOfDay = new Map<number, string>();
  const during = new Map<number, string[]>();
  const moves: TagMove[] = [];
  let current = before?.digest ?? TAG_REMOVED;
  let i = 0;
  for (const day of days) {
    const seen = current === TAG_REMOVED ? [] : [current];
    while (i < records.length && dayOfIso(records[i].updateTime) <= day) {
      const next = records[i].digest;
      if (next !== current) {
        moves.push({ day, from: current, to: next });
        if (next !== TAG_REMOVED && !seen.includes(next)) seen.push(next);
      }
      current = next;
      i++;
    }
    endOfDay.set(day, current);
    during.set(day, seen);
  }
  return { endOfDay, during, moves, truncated };
}

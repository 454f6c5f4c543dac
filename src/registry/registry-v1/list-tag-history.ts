// v1 ListTagHistory: the history of the tag whose uid is given, as
// {items:[{digest, updateTimestamp}]}, oldest first, at most 1000. The guard
// has checked tag.list at the tag's uid before this runs; an unknown tag is
// NOT_FOUND. The read is the one the registry's history route uses.
import type { Timestamp } from '@bufbuild/protobuf/wkt';
import type { TagHistoryFilter, TagHistoryList } from '../../gen/berth/registry/v1/registry_pb.js';
import { isoToTimestamp } from '../../core/clock.js';
import { historyOf } from '../tags/tag-history.js';
import type { ServiceDeps } from '../../runtime/service-deps.js';
import { loadTagRow } from '../tags/tag-row.js';

const MIN_MS = -62_167_219_200_000; // 0000-01-01T00:00:00.000Z
const MAX_MS = 253_402_300_799_999; // 9999-12-31T23:59:59.999Z

/** The stored-text form of a bound, rounded up to the millisecond (so "at or after" and "before" stay exact). */
function bound(ts: Timestamp | undefined): string | undefined {
  if (!ts) return undefined;
  const ms = Number(ts.seconds) * 1000 + Math.ceil(ts.nanos / 1_000_000);
  return new Date(Math.min(MAX_MS, Math.max(MIN_MS, ms))).toISOString();
}

export async function listTagHistory(deps: ServiceDeps, req: TagHistoryFilter): Promise<TagHistoryList> {
  const tag = await loadTagRow(deps, req.parentId);
  const records = await historyOf(deps.store.db, tag.parent_uid, tag.name, { start: bound(req.start), end: bound(req.end) });
  // Built as the messages themselves (every field set), not through create(): up to 1000 items a call.
  return {
    $typeName: 'berth.registry.v1.TagHistoryList',
    items: records.map((r) => ({ $typeName: 'berth.registry.v1.TagHistory', updateTimestamp: isoToTimestamp(r.updateTime), digest: r.digest })),
  };
}

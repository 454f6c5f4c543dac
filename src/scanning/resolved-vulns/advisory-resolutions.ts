// The advisories a resolved vulnerability report reads: those of the feed
// (what imports wrote into the feed group, served to anyone) and those of
// the groups holding the image's repo (written there through the v1 API).
// Read here: approved fixed and false positive events of a range for
// advisories of given package names, and CGA ids by vulnerability id.
import { ancestorsOf } from '../../core/uidp.js';
import { EventTypeFilter, ReviewState } from '../../gen/berth/vulnerabilities/v2/advisories_pb.js';
import { statementChunks } from '../../store/statement-chunks.js';
import type { Executor } from '../../store/transact.js';
import { API_SOURCE } from '../../vulnerabilities/advisory-rows.js';
import { badResolvedVulnsRequest } from './resolved-vulns-errors.js';

/** Approved resolving events one request may read. */
export const MAX_EVENTS = 50_000;

export interface AdvisoryRef {
  advisoryId: string;
  aliases: string[];
  parentUid: string;
  source: string;
}

export interface Resolution extends AdvisoryRef {
  artifactName: string;
  origin: string;
  /** When the event happened (RFC 3339 UTC). */
  time: string;
}

/** Whether the advisory counts for an image of `repoUid` (feed: the feed group's uid, if any). */
export function advisoryFor(repoUid: string, feed: string | undefined, a: AdvisoryRef): boolean {
  if (a.parentUid === feed && a.source !== API_SOURCE) return true;
  return ancestorsOf(repoUid).includes(a.parentUid);
}

/** Approved fixed and false positive events in [start, end) of advisories whose artifact or origin is one of `names`. */
export async function resolutionsWithin(ex: Executor, names: readonly string[], start: string, end: string): Promise<Resolution[]> {
  const out: Resolution[] = [];
  for (const part of statementChunks([...new Set(names)])) {
    const rows = await ex
      .selectFrom('advisory_events as e')
      .innerJoin('advisories as a', 'a.uid', 'e.advisory_uid')
      .select(['a.advisory_id', 'a.aliases', 'a.parent_uid', 'a.source', 'a.artifact_name', 'a.origin', 'e.create_time'])
      .where('e.review_state', '=', ReviewState.APPROVED)
      .where('e.type', 'in', [EventTypeFilter.FIXED, EventTypeFilter.FALSE_POSITIVE_DETERMINATION])
      .where('e.create_time', '>=', start)
      .where('e.create_time', '<', end)
      .where((eb) => eb.or([eb('a.artifact_name', 'in', part), eb('a.origin', 'in', part)]))
      .limit(MAX_EVENTS + 1 - out.length)
      .execute();
    for (const r of rows) {
      out.push({
        advisoryId: r.advisory_id,
        aliases: JSON.parse(r.aliases) as string[],
        parentUid: r.parent_uid,
        source: r.source,
        artifactName: r.artifact_name,
        origin: r.origin,
        time: r.create_time,
      });
    }
    if (out.length > MAX_EVENTS) {
      throw badResolvedVulnsRequest([
        { field: 'end_time', description: `more than ${MAX_EVENTS} advisory events in the range: shorten it or name fewer images` },
      ]);
    }
  }
  return out;
}

/** The advisories naming each of `ids` (as CGA id or alias). */
export async function advisoriesNaming(ex: Executor, ids: readonly string[]): Promise<Map<string, AdvisoryRef[]>> {
  const out = new Map<string, AdvisoryRef[]>();
  const add = (id: string, a: AdvisoryRef) => {
    const list = out.get(id) ?? [];
    if (!list.some((x) => x.advisoryId === a.advisoryId && x.parentUid === a.parentUid && x.source === a.source)) list.push(a);
    out.set(id, list);
  };
  const cols = ['a.advisory_id', 'a.aliases', 'a.parent_uid', 'a.source'] as const;
  const ref = (r: { advisory_id: string; aliases: string; parent_uid: string; source: string }): AdvisoryRef => ({
    advisoryId: r.advisory_id,
    aliases: JSON.parse(r.aliases) as string[],
    parentUid: r.parent_uid,
    source: r.source,
  });
  for (const part of statementChunks([...new Set(ids)])) {
    const byAlias = await ex
      .selectFrom('advisory_aliases as l')
      .innerJoin('advisories as a', 'a.uid', 'l.advisory_uid')
      .select(['l.alias', ...cols])
      .where('l.alias', 'in', part)
      .execute();
    for (const r of byAlias) add(r.alias, ref(r));
    const byId = await ex.selectFrom('advisories as a').select(cols).where('a.advisory_id', 'in', part).execute();
    for (const r of byId) add(r.advisory_id, ref(r));
  }
  return out;
}

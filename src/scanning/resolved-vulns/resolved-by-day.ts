// The vulnerabilities resolved on each UTC day in the images named (the one
// implementation behind the v2 and v1 RPCs). For each visible repo with a
// named name and each tag, on day D:
//   (a) a move of the tag on D from one digest to another: each vulnerability
//       in the report of the old digest that the report of the new one does
//       not name (by id or alias) — when both digests have a report;
//   (b) each advisory of a package of an image the tag pointed to on D with
//       an approved fixed or false positive event dated D.
// Deduplicated by id per day: the CGA advisory id when an advisory names
// the vulnerability, else the vulnerability id.
import type { Caller } from '../../auth/caller.js';
import { Capability } from '../../gen/berth/capabilities/v1/capabilities_pb.js';
import type { Executor } from '../../store/transact.js';
import { reportOfDigest, type DigestReport } from '../scanner-reports/report-of-digest.js';
import { visibleReposNamed, type NamedRepo } from '../tag-days/named-repos.js';
import { MAX_RANGE_RECORDS, tagTimeline, type TagTimeline } from '../tag-days/tag-timeline.js';
import { dayOfIso, dayStartIso } from '../tag-days/utc-days.js';
import { advisoriesNaming, advisoryFor, resolutionsWithin } from './advisory-resolutions.js';
import { imagePackageNames } from './image-packages.js';
import type { ResolvedRequest } from './resolved-request.js';
import { badResolvedVulnsRequest } from './resolved-vulns-errors.js';
import { firstSeverities, severitiesOf, type StoredSeverity } from './vuln-severities.js';

/** What the caller must hold at a repo for its images to be read. */
export const RESOLVED_CAPS = [Capability.CAP_APK_LIST, Capability.CAP_REPO_LIST, Capability.CAP_MANIFEST_METADATA_LIST, Capability.CAP_TAG_LIST];

export interface ResolvedVulnEntry {
  id: string;
  aliases: string[];
  severities: readonly StoredSeverity[];
}

export interface ResolvedDay {
  day: number;
  vulns: ResolvedVulnEntry[];
}

interface Pair {
  repo: NamedRepo;
  timeline: TagTimeline;
}

/** A vulnerability gone from an image, before its CGA id is looked up. */
interface Gone {
  repoUid: string;
  id: string;
  aliases: string[];
}

function namesOf(v: { id: string; aliases: string[] }): Set<string> {
  return new Set([v.id, ...v.aliases]);
}

export async function resolvedByDay(ex: Executor, caller: Caller, req: ResolvedRequest, feed: string | undefined): Promise<ResolvedDay[]> {
  const repos = await visibleReposNamed(ex, caller, RESOLVED_CAPS, [...new Set(req.refs.map((r) => r.repo))]);
  const pairs: Pair[] = [];
  for (const ref of req.refs) {
    for (const repo of repos.filter((r) => r.name === ref.repo)) {
      const timeline = await tagTimeline(ex, repo.uid, ref.tag, req.days);
      if (timeline.truncated) {
        throw badResolvedVulnsRequest([
          { field: 'start_time', description: `${repo.name}:${ref.tag} moved more than ${MAX_RANGE_RECORDS} times in the range: shorten it` },
        ]);
      }
      pairs.push({ repo, timeline });
    }
  }

  const reports = new Map<string, Promise<DigestReport | undefined>>();
  const reportOf = (repoUid: string, digest: string) => {
    const key = `${repoUid} ${digest}`;
    if (!reports.has(key)) reports.set(key, reportOfDigest(ex, repoUid, digest));
    return reports.get(key) as Promise<DigestReport | undefined>;
  };
  // (a) vulnerabilities gone with a move.
  const gone = new Map<number, Gone[]>();
  for (const { repo, timeline } of pairs) {
    for (const move of timeline.moves) {
      if (move.from === '' || move.to === '') continue;
      const [before, after] = [await reportOf(repo.uid, move.from), await reportOf(repo.uid, move.to)];
      if (!before || !after) continue;
      const still = new Set(after.vulnerabilities.flatMap((v) => [...namesOf(v)]));
      const list = gone.get(move.day) ?? [];
      for (const v of before.vulnerabilities) if (![...namesOf(v)].some((n) => still.has(n))) list.push({ repoUid: repo.uid, id: v.id, aliases: v.aliases });
      gone.set(move.day, list);
    }
  }

  // (b) advisories resolved for the packages of the images of each day.
  const packages = new Map<string, Set<string>>(); // `${repo uid} ${digest}` → package names
  const dayImages = new Map<string, string[]>(); // `${pair} ${day}` → keys of packages
  for (const [p, { repo, timeline }] of pairs.entries()) {
    for (const [day, digests] of timeline.during) {
      const keys = digests.map((d) => `${repo.uid} ${d}`);
      for (const [i, k] of keys.entries()) if (!packages.has(k)) packages.set(k, await imagePackageNames(ex, repo.uid, digests[i]));
      dayImages.set(`${p} ${day}`, keys);
    }
  }
  const allNames = [...new Set([...packages.values()].flatMap((s) => [...s]))];
  const first = req.days[0];
  const last = req.days[req.days.length - 1];
  const events = allNames.length === 0 ? [] : await resolutionsWithin(ex, allNames, dayStartIso(first), dayStartIso(last + 1));

  const perDay = new Map<number, Map<string, Set<string>>>(); // day → id → aliases
  const add = (day: number, id: string, aliases: readonly string[]) => {
    const ids = perDay.get(day) ?? new Map<string, Set<string>>();
    const set = ids.get(id) ?? new Set<string>();
    for (const a of aliases) if (a !== id) set.add(a);
    ids.set(id, set);
    perDay.set(day, ids);
  };
  for (const e of events) {
    const day = dayOfIso(e.time);
    for (const [p, { repo }] of pairs.entries()) {
      const images = dayImages.get(`${p} ${day}`) ?? [];
      const holds = images.some((k) => packages.get(k)?.has(e.artifactName) || packages.get(k)?.has(e.origin));
      if (holds && advisoryFor(repo.uid, feed, e)) add(day, e.advisoryId, e.aliases);
    }
  }
  const naming = await advisoriesNaming(
    ex,
    [...gone.values()].flatMap((l) => l.flatMap((g) => [g.id, ...g.aliases])),
  );
  for (const [day, list] of gone) {
    for (const g of list) {
      const advisory = [g.id, ...g.aliases].flatMap((n) => naming.get(n) ?? []).find((a) => advisoryFor(g.repoUid, feed, a));
      if (advisory) add(day, advisory.advisoryId, [g.id, ...g.aliases, ...advisory.aliases]);
      else add(day, g.id, g.aliases);
    }
  }

  const metadataIds = [...perDay.values()].flatMap((ids) => [...ids].flatMap(([id, aliases]) => [id, ...aliases]));
  const severities = await severitiesOf(ex, metadataIds);
  return req.days.map((day) => ({
    day,
    vulns: [...(perDay.get(day) ?? new Map<string, Set<string>>())]
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([id, aliases]) => {
        const sorted = [...aliases].sort();
        return { id, aliases: sorted, severities: firstSeverities(severities, [id, ...sorted]) };
      }),
  }));
}

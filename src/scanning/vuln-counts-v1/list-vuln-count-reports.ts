// v1 ListVulnCountReports and ListCumulativeVulnCountReports: for each repo
// (by name, among those where the caller holds vuln_report.list), tag and UTC
// day of the range, the vulnerabilities of the report of the digest the tag
// pointed to at the end of that day. A day on which the tag pointed nowhere
// (before it existed, or removed) has no item; a digest with no report gives
// an item with no counts and scanner UNKNOWN. Cumulative: each day's ids are the union of the
// range's days up to it. One answer holds at most MAX_ITEMS items.
import { create } from '@bufbuild/protobuf';
import type { HandlerContext } from '@connectrpc/connect';
import { callerOf } from '../../auth/caller.js';
import { isoToTimestamp } from '../../core/clock.js';
import { Capability } from '../../gen/berth/capabilities/v1/capabilities_pb.js';
import {
  type VulnCountReport,
  type VulnCountReportFilter,
  type VulnCountReportList,
  VulnCountReportListSchema,
  VulnCountReportSchema,
  Scanner_Name,
  Vulnerability_Severity,
} from '../../gen/berth/registry/v1/vulnerabilities_pb.js';
import { imagePlatforms, imageSize } from '../../registry/content/image-platforms.js';
import { REGISTRY_DOMAIN } from '../../registry/errors.js';
import { tagNamesBefore } from '../../registry/tags/tag-at.js';
import type { ServiceDeps } from '../../runtime/service-deps.js';
import type { Executor } from '../../store/transact.js';
import { reportOfDigest } from '../scanner-reports/report-of-digest.js';
import type { ReportSeverity, ScannerName } from '../scanner-reports/scanner-report.js';
import { visibleReposNamed, type NamedRepo } from '../tag-days/named-repos.js';
import { MAX_RANGE_RECORDS, tagTimeline } from '../tag-days/tag-timeline.js';
import { dayStartIso } from '../tag-days/utc-days.js';
import { countFilterOf } from './count-filter.js';
import { addSeverityIds, keepHigher } from './severity-ids.js';
import { badVulnCountRequest } from './vuln-count-errors.js';

/** Items (repo × tag × day) one answer may hold. */
export const MAX_ITEMS = 20_000;

const SEVERITIES: readonly ReportSeverity[] = ['CRITICAL', 'HIGH', 'MEDIUM', 'LOW', 'NEGLIGIBLE', 'UNKNOWN'];

interface Pair {
  repo: NamedRepo;
  tag: string;
}

/** What one digest contributes, read once per request. */
interface DigestFacts {
  size: bigint;
  /** undefined when the digest has no report. */
  ids?: Map<string, ReportSeverity>;
  scanner?: ScannerName;
}

async function factsOf(db: Executor, repoUid: string, digest: string): Promise<DigestFacts> {
  const size = (await imageSize(db, repoUid, digest)) ?? (await imagePlatforms(db, repoUid, digest))?.[0]?.size ?? 0;
  const report = await reportOfDigest(db, repoUid, digest);
  return { size: BigInt(size), ids: report ? addSeverityIds(new Map(), report.vulnerabilities) : undefined, scanner: report?.scanner };
}

function itemOf(pair: Pair, day: number, digest: string, f: DigestFacts, ids: Map<string, ReportSeverity> | undefined): VulnCountReport {
  const bySeverity = new Map<ReportSeverity, string[]>(SEVERITIES.map((s) => [s, []]));
  for (const [id, severity] of ids ?? []) bySeverity.get(severity)?.push(id);
  const sorted = (s: ReportSeverity) => (bySeverity.get(s) ?? []).sort();
  return create(VulnCountReportSchema, {
    repo: pair.repo.name,
    repoId: pair.repo.uid,
    tag: pair.tag,
    date: isoToTimestamp(dayStartIso(day)),
    digest,
    sizeBytes: f.size,
    scanner: f.scanner ? Scanner_Name[f.scanner] : Scanner_Name.UNKNOWN,
    vulnCounts: ids ? SEVERITIES.map((s) => ({ severity: Vulnerability_Severity[s], count: BigInt(sorted(s).length) })) : [],
    cveIds: [...(ids?.keys() ?? [])].sort(),
    critCveIds: sorted('CRITICAL'),
    highCveIds: sorted('HIGH'),
    medCveIds: sorted('MEDIUM'),
    lowCveIds: sorted('LOW'),
    negligibleCveIds: sorted('NEGLIGIBLE'),
    unknownCveIds: sorted('UNKNOWN'),
  });
}

async function pairsOf(db: Executor, ctx: HandlerContext, targets: { repo: string; tag: string }[], endIso: string, days: number): Promise<Pair[]> {
  const repos = await visibleReposNamed(db, callerOf(ctx, REGISTRY_DOMAIN), [Capability.CAP_VULN_REPORT_LIST], [...new Set(targets.map((t) => t.repo))]);
  const pairs: Pair[] = [];
  const room = Math.floor(MAX_ITEMS / days);
  for (const t of targets) {
    for (const repo of repos.filter((r) => r.name === t.repo)) {
      const tags = t.tag !== '' ? [t.tag] : await tagNamesBefore(db, repo.uid, endIso, room + 1);
      for (const tag of tags) pairs.push({ repo, tag });
      if (pairs.length > room) {
        throw badVulnCountRequest([{ field: 'tag', description: `more than ${MAX_ITEMS} items (tags × days): name a tag or shorten the range` }]);
      }
    }
  }
  return pairs;
}

export async function listVulnCountReports(
  deps: ServiceDeps,
  req: VulnCountReportFilter,
  ctx: HandlerContext,
  cumulative: boolean,
): Promise<VulnCountReportList> {
  const filter = countFilterOf(req);
  const db = deps.store.db;
  const endIso = dayStartIso(filter.days[filter.days.length - 1] + 1);
  const pairs = await pairsOf(db, ctx, filter.targets, endIso, filter.days.length);
  const facts = new Map<string, DigestFacts>();
  const items: VulnCountReport[] = [];
  for (const pair of pairs) {
    const timeline = await tagTimeline(db, pair.repo.uid, pair.tag, filter.days);
    if (timeline.truncated)
      throw badVulnCountRequest([
        { field: 'from', description: `${pair.repo.name}:${pair.tag} moved more than ${MAX_RANGE_RECORDS} times in the range: shorten it` },
      ]);
    const union = new Map<string, ReportSeverity>();
    for (const day of filter.days) {
      const digest = timeline.endOfDay.get(day) ?? '';
      if (digest === '') continue;
      const key = `${pair.repo.uid} ${digest}`;
      let f = facts.get(key);
      if (!f) {
        f = await factsOf(db, pair.repo.uid, digest);
        facts.set(key, f);
      }
      if (cumulative && f.ids) for (const [id, s] of f.ids) keepHigher(union, id, s);
      const ids = cumulative ? (f.ids || union.size > 0 ? new Map(union) : undefined) : f.ids;
      items.push(itemOf(pair, day, digest, f, ids));
    }
  }
  return create(VulnCountReportListSchema, { items });
}

// v1 GetRepoTagsSummary (no v2 twin): over the repo's tags the request's
// exclusions leave (the same conditions v2's ListTags hides by), how many,
// the newest update, the "latest" tag (else the most recently updated) and
// the version it is: the longest name of another tag at its digest, the
// "latest" and "latest-dev" names aside. The guard checked tag.list at the
// repo; an unknown repo is NOT_FOUND.
import type { SelectQueryBuilder } from 'kysely';
import { sql } from 'kysely';
import { isoToTimestamp } from '../../core/clock.js';
import type { GetRepoTagsSummaryRequest, RepoTagsSummary } from '../../gen/berth/registry/v1/registry_pb.js';
import type { Condition } from '../../list/conditions.js';
import type { ServiceDeps } from '../../runtime/service-deps.js';
import type { Database } from '../../store/database.js';
import type { TagsTable } from '../registry-tables.js';
import { loadRepoRow } from '../repos/repo-row.js';
import { notDate, notEpoch, notReferrer } from '../tags/tag-filters.js';
import { tagFromRow } from '../tags/tag-row.js';
import { v1TagFromV2 } from './tag-v1.js';

const NOT_VERSIONS = ['latest', 'latest-dev'];

type TagsQuery<O> = SelectQueryBuilder<Database, 'tags', O>;

export async function getRepoTagsSummary(deps: ServiceDeps, req: GetRepoTagsSummaryRequest): Promise<RepoTagsSummary> {
  const db = deps.store.db;
  const repo = await loadRepoRow(db, req.repoId);
  const conditions: Condition[] = [];
  if (req.excludeReferrers) conditions.push(notReferrer);
  if (req.excludeDates) conditions.push(notDate);
  if (req.excludeEpochs) conditions.push(notEpoch);
  const kept = <O>(q: TagsQuery<O>): TagsQuery<O> =>
    conditions.reduce((acc, c) => acc.where((eb) => c.where(eb, c.values)), q.where('parent_uid', '=', repo.uid));

  const totals = await kept(db.selectFrom('tags'))
    .select((eb) => [eb.fn.countAll<number | string | bigint>().as('n'), eb.fn.max('update_time').as('newest')])
    .executeTakeFirstOrThrow();
  const summary: RepoTagsSummary = { $typeName: 'berth.registry.v1.RepoTagsSummary', id: repo.uid, tagCount: BigInt(totals.n), latestVersion: '' };
  if (totals.newest === null || totals.newest === undefined) return summary;
  summary.lastUpdated = isoToTimestamp(String(totals.newest));

  const latest: TagsTable | undefined =
    (await kept(db.selectFrom('tags')).selectAll().where('name', '=', 'latest').executeTakeFirst()) ??
    (await kept(db.selectFrom('tags')).selectAll().orderBy('update_time', 'desc').orderBy('uid', 'desc').limit(1).executeTakeFirst());
  if (!latest) return summary;
  summary.latestTag = v1TagFromV2(tagFromRow(latest));
  const version = await kept(db.selectFrom('tags'))
    .select('name')
    .where('digest', '=', latest.digest)
    .where('name', 'not in', [...NOT_VERSIONS, latest.name])
    .orderBy(sql`length(name)`, 'desc')
    .orderBy('name')
    .limit(1)
    .executeTakeFirst();
  summary.latestVersion = version?.name ?? '';
  return summary;
}

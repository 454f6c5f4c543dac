// The 'rematch' scan job: matches a stored inventory against the advisories
// (no layer is read) and stores Berth's report for every repo holding the
// image, each against the advisories its organization may see (the public
// feed's and its own: matching/match-inventory.ts's scope), so one
// customer's private advisories never show in another's report. A report
// whose matches did not change is not written; one that did gets a new
// generation and its event (report-event.ts) in the same transaction.
// Queued when an inventory is stored (inventory-job.ts), when a repo gets an
// image already inventoried (a push), and by the advisory follower for the
// images holding a package whose advisories changed (advisory-follower.ts).
import { nowIso } from '../../core/clock.js';
import { rootOf } from '../../core/uidp.js';
import type { Store } from '../../store/store.js';
import { feedGroup } from '../../vulnerabilities/feed/feed-group.js';
import { writeInventoryKeys } from '../inventories/inventory-writer.js';
import { loadInventories } from '../inventories/stored-inventory.js';
import { enqueueScanJob } from '../jobs/enqueue-job.js';
import { isContainerImage } from '../jobs/inventory-job.js';
import type { JobContext, JobKind, JobOutcome } from '../jobs/job-kind.js';
import { type MatchScope, matchInventory } from '../matching/match-inventory.js';
import { type BerthReportBody, berthReportBody } from './berth-report.js';
import { newestAdvisoryTime } from './advisory-time.js';
import { writeBerthReport } from './write-berth-report.js';

export const REMATCH_JOB = 'rematch';

/** Repos one run writes a report for; a digest held by more (a base image pushed everywhere) is reported in the first, by uid. */
export const MAX_REPORT_REPOS = 1_000;

/** The advisories each organization's reports match against: the feed's group is read once. */
export async function reportScopes(store: Store): Promise<(org: string) => MatchScope> {
  const feed = await feedGroup(store);
  return (org) => (feed === undefined ? { within: [org] } : { within: [org], feedGroup: feed });
}

async function run(ctx: JobContext): Promise<JobOutcome> {
  const { store, job, logger, signal } = ctx;
  const db = store.db;
  const digest = job.digest;
  const inventory = (await loadInventories(db, [digest])).get(digest);
  if (!inventory) return {}; // not inventoried yet: the inventory job queues this again when it stores one
  const holders = await db
    .selectFrom('manifests')
    .select('repo_uid')
    .where('digest', '=', digest)
    .orderBy('repo_uid')
    .limit(MAX_REPORT_REPOS + 1)
    .execute();
  if (holders.length > MAX_REPORT_REPOS) logger.warn({ digest, repos: MAX_REPORT_REPOS }, 'the image is in more repos than one re-match reports for');
  const repos = holders.slice(0, MAX_REPORT_REPOS).map((h) => h.repo_uid);
  if (repos.length === 0) return {};
  // Read before matching: the report is at least as new as this.
  const dbBuildTime = await newestAdvisoryTime(db);
  const generations = new Map<string, number>();
  for (const r of await db
    .selectFrom('vuln_reports')
    .select(['repo_uid', 'generation'])
    .where('digest', '=', digest)
    .where('scanner_name', '=', 'BERTH')
    .where('repo_uid', 'in', repos)
    .execute())
    generations.set(r.repo_uid, r.generation);
  const scope = await reportScopes(store);
  const bodies = new Map<string, BerthReportBody>();
  for (const org of new Set(repos.map(rootOf))) {
    signal.throwIfAborted();
    const body = berthReportBody(await matchInventory(db, inventory, { scope: scope(org) }));
    if (body.omitted > 0) logger.warn({ digest, omitted: body.omitted }, 'a report keeps its first matches only');
    bodies.set(org, body);
  }
  const keyed = await db.selectFrom('scan_inventory_keys').select('digest').where('digest', '=', digest).limit(1).executeTakeFirst();
  ctx.progress.setTotal(1);
  ctx.progress.layerDone();
  return {
    async write(tx) {
      // An inventory stored before keys existed (migration 0027) gets them now, so advisory changes find it.
      if (!keyed && inventory.packages.length > 0) await writeInventoryKeys(tx, digest, inventory);
      const now = nowIso();
      for (const repoUid of repos) {
        const body = bodies.get(rootOf(repoUid)) as BerthReportBody;
        const stored = await writeBerthReport(tx, {
          repoUid,
          digest,
          body: { parts: body.parts, digest: body.digest, matches: body.vulnerabilities },
          ...(dbBuildTime === undefined ? {} : { dbBuildTime }),
          now,
          expectGeneration: generations.get(repoUid) ?? 0,
        });
        if (stored.conflict) {
          await enqueueScanJob(tx, REMATCH_JOB, digest, { again: true });
          return;
        }
      }
    },
  };
}

export const rematchJob: JobKind = {
  // A repo that gets an image (a first push, or an image another repo holds already) needs its own report.
  triggeredBy: (m) => (isContainerImage(m) ? [m.digest] : []),
  requeue: true,
  run,
};

// v1 GetVulnReport: Berth's report of an image of the repo (for an index, its
// image platforms' merged), from the BERTH rows of vuln_reports. The guard
// checked repo.list and vuln_reports.list at the repo before this runs, so a
// caller without them learns nothing of what the repo holds. Until each
// platform's report is stored the answer is UNAVAILABLE naming what it waits
// for: the inventory (GetSbom's answer) or the match.
import type { VulnReportRequest } from '../../gen/berth/registry/v1/registry_pb.js';
import type { VulnReport } from '../../gen/berth/tenant/v1/vuln_report_pb.js';
import { parseDigest } from '../../registry/content/digest.js';
import type { ServiceDeps } from '../../runtime/service-deps.js';
import type { Executor } from '../../store/transact.js';
import { lastAdvisoryChange } from '../../vulnerabilities/affected/advisory-changes.js';
import { JOB_FAILED, JOB_PENDING, JOB_RUNNING } from '../jobs/job-states.js';
import { ADVISORY_CURSOR } from '../reports/advisory-cursor.js';
import { advisoryChangeTime } from '../reports/advisory-time.js';
import { REMATCH_JOB } from '../reports/rematch-job.js';
import { reportTexts } from '../scanner-reports/berth-report-parts.js';
import { imagesOf, jobState } from '../sbom-v1/image-inventory.js';
import { sbomNotReady } from '../sbom-v1/sbom-errors.js';
import { badVulnReportRequest, vulnReportFailed, vulnReportNotReady } from '../vuln-reports-v1/vuln-report-errors.js';
import { type BerthReportRow, tenantReport } from './tenant-report.js';

/** Throws why `image` has no report yet. */
async function notReady(db: Executor, image: string): Promise<never> {
  const inventory = await db.selectFrom('scan_inventories').select('digest').where('digest', '=', image).executeTakeFirst();
  if (!inventory) throw sbomNotReady(await jobState(db, image));
  const job = await db.selectFrom('scan_jobs').selectAll().where('kind', '=', REMATCH_JOB).where('digest', '=', image).executeTakeFirst();
  if (job?.status === JOB_FAILED) throw vulnReportFailed(image, job.error);
  const retry = job?.error ? ` (run ${job.attempts} failed: ${job.error.slice(0, 300)}; retried at ${job.next_attempt_time})` : '';
  throw vulnReportNotReady(job ? `the match of ${image} is ${job.status}${retry}` : `no match is queued for ${image} yet`);
}

/**
 * The newest advisory change when the follower has handled every change and
 * no platform waits for a re-match (the report is current as of it); else the
 * oldest time the platforms' reports were matched at.
 */
async function dbBuildTime(db: Executor, images: readonly string[], rows: readonly { db_build_time: string | null }[]): Promise<string | undefined> {
  const [cursor, last, waiting] = await Promise.all([
    db.selectFrom('scan_cursors').select(['position', 'gaps']).where('name', '=', ADVISORY_CURSOR).executeTakeFirst(),
    lastAdvisoryChange(db),
    db
      .selectFrom('scan_jobs')
      .select('digest')
      .where('kind', '=', REMATCH_JOB)
      .where('digest', 'in', [...images])
      .where('status', 'in', [JOB_PENDING, JOB_RUNNING])
      .limit(1)
      .executeTakeFirst(),
  ]);
  const current = cursor !== undefined && Number(cursor.position) >= last && cursor.gaps === '[]' && waiting === undefined;
  if (current) return (await advisoryChangeTime(db, last)) ?? undefined;
  return rows
    .map((r) => r.db_build_time)
    .filter((t): t is string => t !== null)
    .sort()[0];
}

export async function getVulnReport(deps: ServiceDeps, req: VulnReportRequest): Promise<VulnReport> {
  if (!parseDigest(req.digest)) throw badVulnReportRequest([{ field: 'digest', description: 'must be a digest: sha256:<64 lowercase hex>' }]);
  const db = deps.store.db;
  const images = await imagesOf(db, req.repoId, req.digest);
  const rows =
    images.length === 0
      ? []
      : await db
          .selectFrom('vuln_reports')
          .select(['id', 'digest', 'scanner_version', 'db_build_time', 'created_at', 'generation', 'vulnerabilities'])
          .where('repo_uid', '=', req.repoId)
          .where('scanner_name', '=', 'BERTH')
          .where('digest', 'in', images)
          .execute();
  const texts = await reportTexts(db, rows);
  const byDigest = new Map(rows.map((r, i) => [r.digest, { ...r, vulnerabilities: texts[i] }]));
  for (const image of images) if (!byDigest.has(image)) await notReady(db, image);
  const ordered: BerthReportRow[] = images.map((i) => byDigest.get(i)!);
  const time = await dbBuildTime(db, images, rows);
  return tenantReport(ordered, { id: `${req.repoId}@${req.digest}`, ...(time === undefined ? {} : { dbBuildTime: time }) });
}

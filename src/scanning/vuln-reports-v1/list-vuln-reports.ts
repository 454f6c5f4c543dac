// v1 ListVulnReports: reports newest first, from repos where the caller holds
// vuln_report.list. digest wins over repo_id (reports of that digest in every
// visible repo); tag (with repo_id, ignored with digest) narrows to the digest
// the tag points to now. At most MAX_REPORTS reports, and no more once
// MAX_LISTED_VULNERABILITIES entries are in the answer (the first report is
// always whole), so one answer stays bounded however large the reports.
import { create } from '@bufbuild/protobuf';
import type { HandlerContext } from '@connectrpc/connect';
import type { FieldViolation } from '../../core/api-error.js';
import { timestampToIso } from '../../core/clock.js';
import { type VulnReportFilter, type VulnReportList, VulnReportListSchema } from '../../gen/berth/registry/v1/vulnerabilities_pb.js';
import type { ServiceDeps } from '../../runtime/service-deps.js';
import { isImageDigest } from '../scanner-reports/scanner-report.js';
import { reportTexts } from '../scanner-reports/berth-report-parts.js';
import { reportFromRow, scannerNameOf } from './report-message.js';
import { badVulnReportRequest } from './vuln-report-errors.js';
import { inScopes, reportScopes } from './visible-repos.js';

export const MAX_REPORTS = 100;
export const MAX_LISTED_VULNERABILITIES = 200_000;

function violations(req: VulnReportFilter): FieldViolation[] {
  const out: FieldViolation[] = [];
  if (req.digest !== '' && !isImageDigest(req.digest)) out.push({ field: 'digest', description: 'must be sha256:<64 lowercase hex>' });
  if (req.repoId.length > 1024) out.push({ field: 'repo_id', description: 'longer than 1024 characters' });
  if (req.tag.length > 128) out.push({ field: 'tag', description: 'longer than 128 characters' });
  if (req.tag !== '' && req.repoId === '' && req.digest === '') out.push({ field: 'tag', description: 'needs repo_id' });
  if ((req.scanner?.version.length ?? 0) > 256) out.push({ field: 'scanner.version', description: 'longer than 256 characters' });
  return out;
}

export async function listVulnReports(deps: ServiceDeps, req: VulnReportFilter, ctx: HandlerContext): Promise<VulnReportList> {
  const bad = violations(req);
  if (bad.length > 0) throw badVulnReportRequest(bad);
  const scopes = await reportScopes(ctx);
  const empty = create(VulnReportListSchema, { items: [] });
  if (scopes.length === 0) return empty;
  const db = deps.store.db;
  let q = db
    .selectFrom('vuln_reports')
    .select(['id', 'digest', 'scanner_name', 'scanner_version', 'db_build_time', 'created_at', 'vulnerabilities'])
    .where((eb) => inScopes(eb, scopes));
  if (req.digest !== '') q = q.where('digest', '=', req.digest);
  else if (req.repoId !== '') {
    q = q.where('repo_uid', '=', req.repoId);
    if (req.tag !== '') {
      const tag = await db.selectFrom('tags').select('digest').where('parent_uid', '=', req.repoId).where('name', '=', req.tag).executeTakeFirst();
      if (!tag) return empty;
      q = q.where('digest', '=', tag.digest);
    }
  }
  const name = req.scanner ? scannerNameOf(req.scanner.name) : undefined;
  if (name) q = q.where('scanner_name', '=', name);
  if (req.scanner?.version) q = q.where('scanner_version', '=', req.scanner.version);
  if (req.scanner?.dbBuildTime) q = q.where('db_build_time', '=', timestampToIso(req.scanner.dbBuildTime));
  if (req.createdSince) q = q.where('created_at', '>=', timestampToIso(req.createdSince));
  const rows = await q.orderBy('created_at', 'desc').orderBy('id', 'desc').limit(MAX_REPORTS).execute();
  const texts = await reportTexts(db, rows);
  const items = [];
  let listed = 0;
  for (const [i, row] of rows.entries()) {
    const item = reportFromRow({ ...row, vulnerabilities: texts[i] });
    listed += item.vulnerabilities.length;
    if (items.length > 0 && listed > MAX_LISTED_VULNERABILITIES) break;
    items.push(item);
  }
  return create(VulnReportListSchema, { items });
}

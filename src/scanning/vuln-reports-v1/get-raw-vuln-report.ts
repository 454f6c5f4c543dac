// v1 GetRawVulnReport: the report of that digest and scanner as the scanner
// wrote it, from a repo where the caller holds vuln_report.list; the latest
// when created_at is not given. A report in no visible repo is NOT_FOUND,
// the same answer as none at all.
import { create } from '@bufbuild/protobuf';
import type { HandlerContext } from '@connectrpc/connect';
import type { FieldViolation } from '../../core/api-error.js';
import { isoToTimestamp, timestampToIso } from '../../core/clock.js';
import { type GetRawVulnReportRequest, type RawVulnReport, RawVulnReportSchema } from '../../gen/berth/registry/v1/vulnerabilities_pb.js';
import type { ServiceDeps } from '../../runtime/service-deps.js';
import { isImageDigest } from '../scanner-reports/scanner-report.js';
import { scannerNameOf } from './report-message.js';
import { badVulnReportRequest, vulnReportNotFound } from './vuln-report-errors.js';
import { inScopes, reportScopes } from './visible-repos.js';

export async function getRawVulnReport(deps: ServiceDeps, req: GetRawVulnReportRequest, ctx: HandlerContext): Promise<RawVulnReport> {
  const bad: FieldViolation[] = [];
  if (!isImageDigest(req.digest)) bad.push({ field: 'digest', description: 'must be sha256:<64 lowercase hex>' });
  const name = scannerNameOf(req.scanner);
  if (!name) bad.push({ field: 'scanner', description: 'must name the scanner (GRYPE, TRIVY)' });
  if (bad.length > 0 || !name) throw badVulnReportRequest(bad);
  const scopes = await reportScopes(ctx);
  if (scopes.length === 0) throw vulnReportNotFound(req.digest, name);
  let q = deps.store.db
    .selectFrom('vuln_reports')
    .select(['digest', 'created_at', 'raw'])
    .where('digest', '=', req.digest)
    .where('scanner_name', '=', name)
    .where('raw', 'is not', null)
    .where((eb) => inScopes(eb, scopes));
  if (req.createdAt) q = q.where('created_at', '=', timestampToIso(req.createdAt));
  const row = await q.orderBy('created_at', 'desc').orderBy('id', 'desc').limit(1).executeTakeFirst();
  if (!row?.raw) throw vulnReportNotFound(req.digest, name);
  return create(RawVulnReportSchema, {
    digest: row.digest,
    scanner: req.scanner,
    createdAt: isoToTimestamp(row.created_at),
    rawReport: new TextDecoder().decode(row.raw),
  });
}

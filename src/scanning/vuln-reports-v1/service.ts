import type { ServiceImpl } from '@connectrpc/connect';
import type { VulnerabilitiesService } from '../../gen/berth/registry/v1/vulnerabilities_pb.js';
import type { ServiceDeps } from '../../runtime/service-deps.js';
import { listVulnCountReports } from '../vuln-counts-v1/list-vuln-count-reports.js';
import { getRawVulnReport } from './get-raw-vuln-report.js';
import { listVulnReports } from './list-vuln-reports.js';

export function vulnReportsV1Service(deps: ServiceDeps): ServiceImpl<typeof VulnerabilitiesService> {
  return {
    listVulnReports: (req, ctx) => listVulnReports(deps, req, ctx),
    getRawVulnReport: (req, ctx) => getRawVulnReport(deps, req, ctx),
    listVulnCountReports: (req, ctx) => listVulnCountReports(deps, req, ctx, false),
    listCumulativeVulnCountReports: (req, ctx) => listVulnCountReports(deps, req, ctx, true),
  };
}

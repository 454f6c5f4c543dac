// The v1 RegistryService's report method; the server joins it with the
// registry's own v1 methods and the SBOM ones (src/server/services.ts).
import type { ServiceImpl } from '@connectrpc/connect';
import type { RegistryService } from '../../gen/berth/registry/v1/registry_pb.js';
import type { ServiceDeps } from '../../runtime/service-deps.js';
import { getVulnReport } from './get-vuln-report.js';

export type VulnReportMethods = Pick<ServiceImpl<typeof RegistryService>, 'getVulnReport'>;

export function vulnReportV1Methods(deps: ServiceDeps): VulnReportMethods {
  return {
    getVulnReport: (req) => getVulnReport(deps, req),
  };
}

// berth.vulnerabilities.v2.AdvisoriesService: read-only; writes are the v1
// service's (src/vulnerabilities/advisories-v1/) and the importer's.
import type { ServiceImpl } from '@connectrpc/connect';
import type { AdvisoriesService } from '../../gen/berth/vulnerabilities/v2/advisories_pb.js';
import type { ServiceDeps } from '../../runtime/service-deps.js';
import { getAdvisory } from './get-advisory.js';
import { listAdvisories } from './list-advisories.js';

export function advisoriesService(deps: ServiceDeps): ServiceImpl<typeof AdvisoriesService> {
  return {
    listAdvisories: (req, ctx) => listAdvisories(deps, req, ctx),
    getAdvisory: (req) => getAdvisory(deps, req),
  };
}

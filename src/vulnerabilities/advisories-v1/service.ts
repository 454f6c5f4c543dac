// berth.vulnerabilities.v1.AdvisoriesService: the operators' writes over the
// advisories the v2 API reads (advisory-writes.ts, advisory-events.ts), and
// the v1 List over the same filters.
import type { ServiceImpl } from '@connectrpc/connect';
import type { AdvisoriesService } from '../../gen/berth/vulnerabilities/v1/advisories_pb.js';
import type { ServiceDeps } from '../../runtime/service-deps.js';
import { createAdvisoryEvent, listAdvisoryEvents, updateAdvisoryEvent } from './advisory-events.js';
import { createAdvisory, deleteAdvisory, updateAdvisory } from './advisory-writes.js';
import { listAdvisoriesV1 } from './list-advisories.js';

export function advisoriesV1Service(deps: ServiceDeps): ServiceImpl<typeof AdvisoriesService> {
  return {
    create: (req, ctx) => createAdvisory(deps, req, ctx),
    list: (req, ctx) => listAdvisoriesV1(deps, req, ctx),
    update: (req, ctx) => updateAdvisory(deps, req, ctx),
    delete: (req, ctx) => deleteAdvisory(deps, req, ctx),
    createAdvisoryEvent: (req, ctx) => createAdvisoryEvent(deps, req, ctx),
    listAdvisoryEvents: (req) => listAdvisoryEvents(deps, req),
    updateAdvisoryEvent: (req, ctx) => updateAdvisoryEvent(deps, req, ctx),
  };
}

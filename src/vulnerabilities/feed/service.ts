// berth.advisory.v2.SecurityAdvisoryService: the advisory feed. Anonymous
// by its annotation (as deployed); a server run with --feed-requires-auth
// has the guard ask for a token (services.ts, requireToken).
import type { ServiceImpl } from '@connectrpc/connect';
import type { SecurityAdvisoryService } from '../../gen/berth/advisory/v2/advisory_pb.js';
import type { ServiceDeps } from '../../runtime/service-deps.js';
import { listVulnerabilityMetadata } from '../metadata/list-metadata.js';
import { listDocuments } from './list-documents.js';

/** The feed's methods; ListResolvedVulnsReports reads images, so it is scanning's (joined in src/server/services.ts). */
export function securityAdvisoryService(deps: ServiceDeps): Omit<ServiceImpl<typeof SecurityAdvisoryService>, 'listResolvedVulnsReports'> {
  return {
    listDocuments: (req) => listDocuments(deps.store, req),
    listVulnerabilityMetadata: (req) => listVulnerabilityMetadata(deps, req),
  };
}

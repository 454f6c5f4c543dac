// berth.advisory.v2.SecurityAdvisoryService: the advisory feed. Anonymous
// by its annotation (as deployed); a server run with --feed-requires-auth
// has the guard ask for a token (services.ts, requireToken).
import type { ServiceImpl } from '@connectrpc/connect';
import type { SecurityAdvisoryService as SecurityAdvisoryV1Service } from '../../gen/berth/advisory/v1/advisory_pb.js';
import type { SecurityAdvisoryService } from '../../gen/berth/advisory/v2/advisory_pb.js';
import type { ServiceDeps } from '../../runtime/service-deps.js';
import { listVulnerabilityMetadata } from '../metadata/list-metadata.js';
import { listDocumentsV1, listVulnerabilityMetadataV1 } from './feed-v1.js';
import { listDocuments } from './list-documents.js';

/** The feed's methods; ListResolvedVulnsReports reads images, so it is scanning's (joined in src/server/services.ts). */
export function securityAdvisoryService(deps: ServiceDeps): Omit<ServiceImpl<typeof SecurityAdvisoryService>, 'listResolvedVulnsReports'> {
  return {
    listDocuments: (req) => listDocuments(deps.store, req),
    listVulnerabilityMetadata: (req) => listVulnerabilityMetadata(deps, req),
  };
}

/** The v1 feed's methods; ListResolvedVulnsReports is scanning's, as in v2. */
export function securityAdvisoryV1Service(deps: ServiceDeps): Omit<ServiceImpl<typeof SecurityAdvisoryV1Service>, 'listResolvedVulnsReports'> {
  return {
    listDocuments: (req) => listDocumentsV1(deps, req),
    listVulnerabilityMetadata: (req) => listVulnerabilityMetadataV1(deps, req),
  };
}

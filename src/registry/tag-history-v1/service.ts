import type { ServiceImpl } from '@connectrpc/connect';
import type { RegistryService } from '../../gen/berth/registry/v1/registry_pb.js';
import type { ServiceDeps } from '../../runtime/service-deps.js';
import { listEolTags } from '../eol/list-eol-tags.js';
import { listTagHistory } from './list-tag-history.js';

/** The registry's own v1 methods; the SBOM and report ones are scanning's (joined in src/server/services.ts). */
export function registryV1Service(deps: ServiceDeps): Omit<ServiceImpl<typeof RegistryService>, 'getSbom' | 'getRawSbom' | 'getVulnReport'> {
  return {
    listTagHistory: (req) => listTagHistory(deps, req),
    listEolTags: (req, ctx) => listEolTags(deps, req, ctx),
  };
}

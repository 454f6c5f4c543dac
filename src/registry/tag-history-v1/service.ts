import type { ServiceImpl } from '@connectrpc/connect';
import type { RegistryService } from '../../gen/berth/registry/v1/registry_pb.js';
import type { ServiceDeps } from '../../runtime/service-deps.js';
import { listEolTags } from '../eol/list-eol-tags.js';
import { listTagHistory } from './list-tag-history.js';

export function registryV1Service(deps: ServiceDeps): ServiceImpl<typeof RegistryService> {
  return {
    listTagHistory: (req) => listTagHistory(deps, req),
    listEolTags: (req, ctx) => listEolTags(deps, req, ctx),
  };
}

import type { ServiceImpl } from '@connectrpc/connect';
import type { RegistryService } from '../../gen/berth/registry/v1/registry_pb.js';
import type { ServiceDeps } from '../../runtime/service-deps.js';
import { listTagHistory } from './list-tag-history.js';

export function registryV1Service(deps: ServiceDeps): ServiceImpl<typeof RegistryService> {
  return {
    listTagHistory: (req) => listTagHistory(deps, req),
  };
}

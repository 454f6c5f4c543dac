// The v1 RegistryService's SBOM methods, and the package metadata read from
// the same inventory; the server joins them with the registry's own v1
// methods (src/server/services.ts), since registry code may not import
// scanning.
import type { ServiceImpl } from '@connectrpc/connect';
import type { RegistryService } from '../../gen/berth/registry/v1/registry_pb.js';
import type { ServiceDeps } from '../../runtime/service-deps.js';
import { getRawSbom } from './get-raw-sbom.js';
import { getSbom } from './get-sbom.js';
import { listManifestMetadata } from './list-manifest-metadata.js';

export type SbomMethods = Pick<ServiceImpl<typeof RegistryService>, 'getSbom' | 'getRawSbom' | 'listManifestMetadata'>;

export function sbomV1Methods(deps: ServiceDeps): SbomMethods {
  return {
    getSbom: (req) => getSbom(deps, req),
    getRawSbom: (req) => getRawSbom(deps, req),
    listManifestMetadata: (req) => listManifestMetadata(deps, req),
  };
}

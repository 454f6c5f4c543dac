import type { ServiceImpl } from '@connectrpc/connect';
import type { IdentitiesService } from '../../gen/berth/iam/v2/identities_pb.js';
import type { ServiceDeps } from '../../runtime/service-deps.js';
import { createIdentity } from './create-identity.js';
import { deleteIdentity } from './delete-identity.js';
import { getIdentity } from './get-identity.js';
import { listIdentities } from './list-identities.js';
import { lookupIdentity } from './lookup-identity.js';
import { updateIdentity } from './update-identity.js';

export function identitiesService(deps: ServiceDeps): ServiceImpl<typeof IdentitiesService> {
  return {
    createIdentity: (req) => createIdentity(deps, req),
    getIdentity: (req) => getIdentity(deps, req),
    listIdentities: (req, ctx) => listIdentities(deps, req, ctx),
    updateIdentity: (req) => updateIdentity(deps, req),
    deleteIdentity: (req) => deleteIdentity(deps, req),
    lookupIdentity: (req) => lookupIdentity(req),
  };
}

import type { ServiceImpl } from '@connectrpc/connect';
import type { IdentitiesService } from '../../gen/berth/iam/v2/identities_pb.js';
import type { ServiceDeps } from '../../runtime/service-deps.js';
import { createIdentity } from './create-identity.js';
import { deleteIdentity } from './delete-identity.js';
import { getIdentity } from './get-identity.js';
import { listIdentities } from './list-identities.js';
import { lookupIdentity } from './lookup-identity.js';
import { updateIdentity } from './update-identity.js';
import { updateIdentityMetadata } from './update-identity-metadata.js';

export function identitiesService(deps: ServiceDeps): ServiceImpl<typeof IdentitiesService> {
  return {
    createIdentity: (req, ctx) => createIdentity(deps, req, ctx),
    getIdentity: (req, ctx) => getIdentity(deps, req, ctx),
    listIdentities: (req, ctx) => listIdentities(deps, req, ctx),
    updateIdentity: (req, ctx) => updateIdentity(deps, req, ctx),
    deleteIdentity: (req, ctx) => deleteIdentity(deps, req, ctx),
    lookupIdentity: (req) => lookupIdentity(req),
    updateIdentityMetadata: (req, ctx) => updateIdentityMetadata(deps, req, ctx),
  };
}

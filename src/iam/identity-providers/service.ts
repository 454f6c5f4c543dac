import type { ServiceImpl } from '@connectrpc/connect';
import type { IdentityProvidersService } from '../../gen/berth/iam/v2/identity_providers_pb.js';
import type { ServiceDeps } from '../../runtime/service-deps.js';
import { createIdentityProvider } from './create-provider.js';
import { deleteIdentityProvider } from './delete-provider.js';
import { getIdentityProvider } from './get-provider.js';
import { listIdentityProviders } from './list-providers.js';
import { updateIdentityProvider } from './update-provider.js';
import { generateScimToken } from '../scim-tokens/generate-scim-token.js';
import { regenerateScimToken } from '../scim-tokens/regenerate-scim-token.js';
import { revokeScimToken } from '../scim-tokens/revoke-scim-token.js';
import { setScimEnabled } from '../scim-tokens/set-scim-enabled.js';

export function identityProvidersService(deps: ServiceDeps): ServiceImpl<typeof IdentityProvidersService> {
  return {
    listIdentityProviders: (req, ctx) => listIdentityProviders(deps, req, ctx),
    getIdentityProvider: (req) => getIdentityProvider(deps, req),
    createIdentityProvider: (req, ctx) => createIdentityProvider(deps, req, ctx),
    updateIdentityProvider: (req, ctx) => updateIdentityProvider(deps, req, ctx),
    deleteIdentityProvider: (req, ctx) => deleteIdentityProvider(deps, req, ctx),
    generateScimToken: (req, ctx) => generateScimToken(deps, req, ctx),
    regenerateScimToken: (req, ctx) => regenerateScimToken(deps, req, ctx),
    revokeScimToken: (req, ctx) => revokeScimToken(deps, req, ctx),
    setScimEnabled: (req, ctx) => setScimEnabled(deps, req, ctx),
  };
}

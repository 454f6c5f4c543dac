import type { GetIdentityProviderRequest, IdentityProvider } from '../../gen/berth/iam/v2/identity_providers_pb.js';
import type { ServiceDeps } from '../../runtime/service-deps.js';
import { loadScimRow, scimOfRow } from '../scim-tokens/scim-state.js';
import { loadProviderRow, providerFromRow } from './provider-row.js';

/** The provider with its SCIM state (which lists leave out: one more read per provider). */
export async function getIdentityProvider(deps: ServiceDeps, req: GetIdentityProviderRequest): Promise<IdentityProvider> {
  const provider = providerFromRow(await loadProviderRow(deps.store.db, req.uid));
  provider.scim = scimOfRow(await loadScimRow(deps.store.db, req.uid), deps.publicUrl, req.uid);
  return provider;
}

import type { GetIdentityProviderRequest, IdentityProvider } from '../../gen/berth/iam/v2/identity_providers_pb.js';
import type { ServiceDeps } from '../../runtime/service-deps.js';
import { loadProviderRow, providerFromRow } from './provider-row.js';

export async function getIdentityProvider(deps: ServiceDeps, req: GetIdentityProviderRequest): Promise<IdentityProvider> {
  return providerFromRow(await loadProviderRow(deps.store.db, req.uid));
}

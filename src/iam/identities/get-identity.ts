import type { GetIdentityRequest, Identity } from '../../gen/berth/iam/v2/identities_pb.js';
import type { ServiceDeps } from '../../runtime/service-deps.js';
import { identityFromRow, loadIdentityRow } from './identity-row.js';

export async function getIdentity(deps: ServiceDeps, req: GetIdentityRequest): Promise<Identity> {
  return identityFromRow(await loadIdentityRow(deps.store.db, req.uid));
}

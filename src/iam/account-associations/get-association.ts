import type { AccountAssociation, GetAccountAssociationRequest } from '../../gen/berth/iam/v2/account_associations_pb.js';
import type { ServiceDeps } from '../../runtime/service-deps.js';
import { associationFromRow, loadAssociationRow } from './association-row.js';

export async function getAccountAssociation(deps: ServiceDeps, req: GetAccountAssociationRequest): Promise<AccountAssociation> {
  return associationFromRow(await loadAssociationRow(deps.store.db, req.uid));
}

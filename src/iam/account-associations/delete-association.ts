import type { DeleteAccountAssociationRequest } from '../../gen/berth/iam/v2/account_associations_pb.js';
import type { ServiceDeps } from '../../runtime/service-deps.js';
import { transact } from '../../store/transact.js';

/** Idempotent by contract: an association that is already gone is a success. */
export async function deleteAccountAssociation(deps: ServiceDeps, req: DeleteAccountAssociationRequest): Promise<Record<string, never>> {
  await transact(deps.store, (tx) => tx.deleteFrom('account_associations').where('uid', '=', req.uid).execute());
  return {};
}

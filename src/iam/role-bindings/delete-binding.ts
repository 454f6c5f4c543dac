import type { DeleteRoleBindingRequest } from '../../gen/berth/iam/v2/role_bindings_pb.js';
import type { ServiceDeps } from '../../runtime/service-deps.js';
import { transact } from '../../store/transact.js';

/** Idempotent by contract: a binding that is already gone is a success, so cleanups can be retried. */
export async function deleteRoleBinding(deps: ServiceDeps, req: DeleteRoleBindingRequest): Promise<Record<string, never>> {
  await transact(deps.store, (tx) => tx.deleteFrom('role_bindings').where('uid', '=', req.uid).execute());
  return {};
}

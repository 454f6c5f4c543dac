import type { GetRoleBindingRequest, RoleBinding } from '../../gen/berth/iam/v2/role_bindings_pb.js';
import type { ServiceDeps } from '../../runtime/service-deps.js';
import { loadHydrated } from './binding-row.js';

export async function getRoleBinding(deps: ServiceDeps, req: GetRoleBindingRequest): Promise<RoleBinding> {
  return loadHydrated(deps.store.db, req.uid);
}

import { transact } from '../../store/transact.js';
import type { DeleteRoleRequest } from '../../gen/berth/iam/v2/roles_pb.js';
import type { ServiceDeps } from '../../runtime/service-deps.js';
import { builtinRoleImmutable, roleInUse, roleNotFound } from '../errors.js';

/** Refuses built-in roles and roles still bound anywhere, so no binding ever points at nothing. */
export async function deleteRole(deps: ServiceDeps, req: DeleteRoleRequest): Promise<Record<string, never>> {
  await transact(deps.store, async (tx) => {
    const row = await tx.selectFrom('roles').select(['uid', 'builtin']).where('uid', '=', req.uid).executeTakeFirst();
    if (!row) throw roleNotFound(req.uid);
    if (row.builtin === 1) throw builtinRoleImmutable(req.uid);
    const bound = await tx.selectFrom('role_bindings').select('uid').where('role_uid', '=', req.uid).limit(1).executeTakeFirst();
    if (bound) throw roleInUse(req.uid);
    await tx.deleteFrom('roles').where('uid', '=', req.uid).execute();
  });
  return {};
}

import type { DeleteGroupInviteRequest } from '../../gen/berth/iam/v2/group_invites_pb.js';
import type { ServiceDeps } from '../../runtime/service-deps.js';
import { transact } from '../../store/transact.js';

/** Idempotent by contract. The row goes, so its code is refused from then on. */
export async function deleteGroupInvite(deps: ServiceDeps, req: DeleteGroupInviteRequest): Promise<Record<string, never>> {
  await transact(deps.store, (tx) => tx.deleteFrom('group_invites').where('uid', '=', req.uid).execute());
  return {};
}

import type { GetGroupInviteRequest, GroupInvite } from '../../gen/berth/iam/v2/group_invites_pb.js';
import type { ServiceDeps } from '../../runtime/service-deps.js';
import { loadInvite } from './invite-row.js';

export async function getGroupInvite(deps: ServiceDeps, req: GetGroupInviteRequest): Promise<GroupInvite> {
  return loadInvite(deps.store.db, req.uid);
}

import type { GetGroupRequest, Group } from '../../gen/berth/iam/v2/groups_pb.js';
import type { ServiceDeps } from '../../runtime/service-deps.js';
import { groupFromRow, loadGroupRow } from './group-row.js';

export async function getGroup(deps: ServiceDeps, req: GetGroupRequest): Promise<Group> {
  return groupFromRow(await loadGroupRow(deps.store.db, req.uid));
}

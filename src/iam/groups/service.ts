import type { ServiceImpl } from '@connectrpc/connect';
import type { GroupsService } from '../../gen/berth/iam/v2/groups_pb.js';
import type { ServiceDeps } from '../../runtime/service-deps.js';
import { createGroup } from './create-group.js';
import { deleteGroup } from './delete-group.js';
import { getGroup } from './get-group.js';
import { listGroups } from './list-groups.js';
import { updateGroup } from './update-group.js';

export function groupsService(deps: ServiceDeps): ServiceImpl<typeof GroupsService> {
  return {
    getGroup: (req) => getGroup(deps, req),
    listGroups: (req, ctx) => listGroups(deps, req, ctx),
    createGroup: (req, ctx) => createGroup(deps, req, ctx),
    updateGroup: (req, ctx) => updateGroup(deps, req, ctx),
    deleteGroup: (req, ctx) => deleteGroup(deps, req, ctx),
  };
}

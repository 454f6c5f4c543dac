import type { ServiceImpl } from '@connectrpc/connect';
import type { GroupsService } from '../../gen/berth/iam/v2/groups_pb.js';
import type { ServiceDeps } from '../../runtime/service-deps.js';
import { createGroup } from './create-group.js';
import { deleteGroup } from './delete-group.js';
import { getGroup } from './get-group.js';
import { listGroups } from './list-groups.js';
import { updateGroup } from './update-group.js';
import { approveGroupAccessRequest } from '../group-access/approve-access-request.js';
import { checkEligibility } from '../group-access/check-eligibility.js';
import { denyGroupAccessRequest } from '../group-access/deny-access-request.js';
import { listGroupAccessRequests } from '../group-access/list-access-requests.js';
import { lookupGroup } from '../group-access/lookup-group.js';
import { requestGroupAccess } from '../group-access/request-group-access.js';

export function groupsService(deps: ServiceDeps): ServiceImpl<typeof GroupsService> {
  return {
    getGroup: (req) => getGroup(deps, req),
    listGroups: (req, ctx) => listGroups(deps, req, ctx),
    createGroup: (req, ctx) => createGroup(deps, req, ctx),
    updateGroup: (req, ctx) => updateGroup(deps, req, ctx),
    deleteGroup: (req, ctx) => deleteGroup(deps, req, ctx),
    lookupGroup: (_req, ctx) => lookupGroup(deps, ctx),
    checkEligibility: (_req, ctx) => checkEligibility(deps, ctx),
    requestGroupAccess: (req, ctx) => requestGroupAccess(deps, req, ctx),
    listGroupAccessRequests: (req, ctx) => listGroupAccessRequests(deps, req, ctx),
    approveGroupAccessRequest: (req, ctx) => approveGroupAccessRequest(deps, req, ctx),
    denyGroupAccessRequest: (req, ctx) => denyGroupAccessRequest(deps, req, ctx),
  };
}

import type { ServiceImpl } from '@connectrpc/connect';
import type { GroupInvitesService } from '../../gen/berth/iam/v2/group_invites_pb.js';
import type { ServiceDeps } from '../../runtime/service-deps.js';
import { createGroupInvite } from './create-invite.js';
import { deleteGroupInvite } from './delete-invite.js';
import { getGroupInvite } from './get-invite.js';
import { listGroupInvites } from './list-invites.js';

export function groupInvitesService(deps: ServiceDeps): ServiceImpl<typeof GroupInvitesService> {
  return {
    createGroupInvite: (req, ctx) => createGroupInvite(deps, req, ctx),
    getGroupInvite: (req) => getGroupInvite(deps, req),
    deleteGroupInvite: (req, ctx) => deleteGroupInvite(deps, req, ctx),
    listGroupInvites: (req, ctx) => listGroupInvites(deps, req, ctx),
  };
}

// berth.iam.v1.GroupInvites: the v1 shapes over CreateGroupInvite,
// ListGroupInvites and DeleteGroupInvite of src/iam/group-invites/.
import { create } from '@bufbuild/protobuf';
import type { HandlerContext, ServiceImpl } from '@connectrpc/connect';
import { type GroupInviteFilter, type GroupInvites, GroupInviteSchema, StoredGroupInviteSchema } from '../../gen/berth/iam/v1/group_invites_pb.js';
import {
  CreateGroupInviteRequestSchema,
  DeleteGroupInviteRequestSchema,
  type GroupInvite as GroupInviteV2,
  ListGroupInvitesRequestSchema,
} from '../../gen/berth/iam/v2/group_invites_pb.js';
import type { ServiceDeps } from '../../runtime/service-deps.js';
import { createGroupInvite } from '../group-invites/create-invite.js';
import { deleteGroupInvite } from '../group-invites/delete-invite.js';
import { listGroupInvites } from '../group-invites/list-invites.js';
import { v1Role } from './role-v1.js';
import { deleteV1 } from './v1-delete.js';
import { allItems, checkUidFilter, idFilter, uidpWith } from '../../list/v1-list.js';
import { iamList } from './iam-v1-list.js';
import { IAM_DOMAIN } from '../errors.js';

const role = (i: GroupInviteV2) => (i.role ? v1Role(i.role) : undefined);

function v1StoredInvite(i: GroupInviteV2) {
  return create(StoredGroupInviteSchema, {
    id: i.uid,
    expiration: i.expirationTime,
    keyId: i.keyId,
    role: role(i),
    email: i.email,
    createdAt: i.createTime,
    singleUse: i.singleUse,
  });
}

async function listInvitesV1(deps: ServiceDeps, req: GroupInviteFilter, ctx: HandlerContext) {
  checkUidFilter(IAM_DOMAIN, 'group', req.group);
  const ids = idFilter(IAM_DOMAIN, 'id', req.id);
  // `group`: the invites of exactly that group (v2's uidp.children_of).
  const uidp = req.group === '' ? ids : uidpWith(ids, { childrenOf: req.group });
  const items = await allItems(iamList('/iam/v2/groupInvites'), async (pageSize, pageToken) => {
    const page = await listGroupInvites(deps, create(ListGroupInvitesRequestSchema, { uidp, keyId: req.keyId, pageSize, pageToken }), ctx);
    return [page.groupInvites.map(v1StoredInvite), page.nextPageToken];
  });
  return { $typeName: 'berth.iam.v1.GroupInviteList' as const, items };
}

export function groupInvitesV1Service(deps: ServiceDeps): ServiceImpl<typeof GroupInvites> {
  return {
    create: async (req, ctx) => {
      const groupInvite = { roleUid: req.role, email: req.email, ttl: req.ttl, singleUse: req.singleUse };
      const i = await createGroupInvite(deps, create(CreateGroupInviteRequestSchema, { parent: req.group, groupInvite }), ctx);
      return create(GroupInviteSchema, { id: i.uid, expiration: i.expirationTime, keyId: i.keyId, role: role(i), code: i.code });
    },
    list: (req, ctx) => listInvitesV1(deps, req, ctx),
    delete: (req, ctx) => deleteV1(() => deleteGroupInvite(deps, create(DeleteGroupInviteRequestSchema, { uid: req.id }), ctx)),
  };
}

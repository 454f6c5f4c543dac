// berth.iam.v1.Groups: the v1 shapes over CreateGroup, UpdateGroup,
// ListGroups and DeleteGroup of src/iam/groups/ (same rules, same events).
import { create } from '@bufbuild/protobuf';
import type { ServiceImpl } from '@connectrpc/connect';
import { type Group, type GroupFilter, GroupSchema, type Groups } from '../../gen/berth/iam/v1/groups_pb.js';
import {
  CreateGroupRequestSchema,
  DeleteGroupRequestSchema,
  type Group as GroupV2,
  ListGroupsRequestSchema,
  UpdateGroupRequestSchema,
} from '../../gen/berth/iam/v2/groups_pb.js';
import type { ServiceDeps } from '../../runtime/service-deps.js';
import type { HandlerContext } from '@connectrpc/connect';
import { createGroup } from '../groups/create-group.js';
import { deleteGroup } from '../groups/delete-group.js';
import { listGroups } from '../groups/list-groups.js';
import { updateGroup } from '../groups/update-group.js';
import { deleteV1 } from './v1-delete.js';
import { allItems, narrowToId } from '../../list/v1-list.js';
import { iamList } from './iam-v1-list.js';
import { IAM_DOMAIN } from '../errors.js';

export function v1Group(g: GroupV2): Group {
  return create(GroupSchema, { id: g.uid, name: g.name, description: g.description, verified: g.verified });
}

async function listGroupsV1(deps: ServiceDeps, req: GroupFilter, ctx: HandlerContext) {
  const uidp = narrowToId(IAM_DOMAIN, req.uidp, 'id', req.id);
  const items =
    uidp === null
      ? []
      : await allItems(iamList('/iam/v2/groups'), async (pageSize, pageToken) => {
          const page = await listGroups(deps, create(ListGroupsRequestSchema, { uidp, name: req.name, pageSize, pageToken }), ctx);
          return [page.groups.map(v1Group), page.nextPageToken];
        });
  return { $typeName: 'berth.iam.v1.GroupList' as const, items };
}

export function groupsV1Service(deps: ServiceDeps): ServiceImpl<typeof Groups> {
  return {
    create: async (req, ctx) => {
      const group = { name: req.group?.name ?? '', description: req.group?.description ?? '' };
      return v1Group(await createGroup(deps, create(CreateGroupRequestSchema, { parent: req.parent, group }), ctx));
    },
    // PUT replaces every writable field; `verified` is the operator's.
    update: async (req, ctx) => {
      const group = { uid: req.id, name: req.name, description: req.description };
      return v1Group(await updateGroup(deps, create(UpdateGroupRequestSchema, { group, updateMask: { paths: ['name', 'description'] } }), ctx));
    },
    list: (req, ctx) => listGroupsV1(deps, req, ctx),
    delete: (req, ctx) => deleteV1(() => deleteGroup(deps, create(DeleteGroupRequestSchema, { uid: req.id }), ctx)),
  };
}

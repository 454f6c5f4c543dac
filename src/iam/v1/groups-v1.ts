// berth.iam.v1.Groups: the v1 shapes over CreateGroup, UpdateGroup,
// ListGroups and DeleteGroup of src/iam/groups/, and LookupGroup,
// RequestGroupAccess and CheckEligibility of src/iam/group-access/ (same
// rules, same events).
import { create } from '@bufbuild/protobuf';
import type { ServiceImpl } from '@connectrpc/connect';
import {
  CheckEligibilityResponseSchema,
  type Group,
  type GroupFilter,
  GroupSchema,
  type Groups,
  LookupGroupResponseSchema,
  RequestGroupAccessResponseSchema,
} from '../../gen/berth/iam/v1/groups_pb.js';
import {
  CreateGroupRequestSchema,
  DeleteGroupRequestSchema,
  type Group as GroupV2,
  ListGroupsRequestSchema,
  RequestGroupAccessRequestSchema,
  UpdateGroupRequestSchema,
} from '../../gen/berth/iam/v2/groups_pb.js';
import { isValidUid } from '../../core/uidp.js';
import type { ServiceDeps } from '../../runtime/service-deps.js';
import type { HandlerContext } from '@connectrpc/connect';
import { createGroup } from '../groups/create-group.js';
import { deleteGroup } from '../groups/delete-group.js';
import { listGroups } from '../groups/list-groups.js';
import { updateGroup } from '../groups/update-group.js';
import { checkEligibility } from '../group-access/check-eligibility.js';
import { lookupGroup } from '../group-access/lookup-group.js';
import { requestGroupAccess } from '../group-access/request-group-access.js';
import { deleteV1 } from './v1-delete.js';
import { allItems, narrowToId } from '../../list/v1-list.js';
import { iamList } from './iam-v1-list.js';
import { badIamRequest, IAM_DOMAIN } from '../errors.js';

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
    lookupGroup: async (_req, ctx) => {
      const found = await lookupGroup(deps, ctx);
      return create(LookupGroupResponseSchema, { group: found.group && v1Group(found.group) });
    },
    requestGroupAccess: async (req, ctx) => {
      // v2 checks the same; here so the violation names v1's field.
      if (!isValidUid(req.groupId)) throw badIamRequest([{ field: 'group_id', description: 'group_id must be the uid LookupGroup found' }]);
      await requestGroupAccess(deps, create(RequestGroupAccessRequestSchema, { groupUid: req.groupId }), ctx);
      return create(RequestGroupAccessResponseSchema);
    },
    checkEligibility: async (_req, ctx) => create(CheckEligibilityResponseSchema, { eligible: (await checkEligibility(deps, ctx)).eligible }),
  };
}

// berth.iam.v1.RoleBindings: the v1 shapes over CreateRoleBinding,
// BatchCreateRoleBindings, UpdateRoleBinding, ListRoleBindings and
// DeleteRoleBinding of src/iam/role-bindings/ (same rules, same events).
import { create } from '@bufbuild/protobuf';
import type { HandlerContext, ServiceImpl } from '@connectrpc/connect';
import { GroupSchema } from '../../gen/berth/iam/v1/groups_pb.js';
import {
  type RoleBinding,
  type RoleBindingFilter,
  RoleBindingList_BindingSchema,
  type RoleBindings,
  RoleBindingSchema,
} from '../../gen/berth/iam/v1/role_bindings_pb.js';
import {
  BatchCreateRoleBindingsRequestSchema,
  CreateRoleBindingRequestSchema,
  DeleteRoleBindingRequestSchema,
  GetRoleBindingRequestSchema,
  ListRoleBindingsRequestSchema,
  type RoleBinding as RoleBindingV2,
  UpdateRoleBindingRequestSchema,
} from '../../gen/berth/iam/v2/role_bindings_pb.js';
import type { ServiceDeps } from '../../runtime/service-deps.js';
import { badIamRequest, IAM_DOMAIN } from '../errors.js';
import { batchCreateRoleBindings } from '../role-bindings/batch-create-bindings.js';
import { createRoleBinding } from '../role-bindings/create-binding.js';
import { deleteRoleBinding } from '../role-bindings/delete-binding.js';
import { getRoleBinding } from '../role-bindings/get-binding.js';
import { listRoleBindings } from '../role-bindings/list-bindings.js';
import { updateRoleBinding } from '../role-bindings/update-binding.js';
import { v1Role } from './role-v1.js';
import { deleteV1 } from './v1-delete.js';
import { allItems, narrowToId } from '../../list/v1-list.js';
import { iamList } from './iam-v1-list.js';

/** v1's binding: uids only; `group` (deprecated) is the binding's group. */
function v1Binding(b: RoleBindingV2): RoleBinding {
  return create(RoleBindingSchema, { id: b.uid, identity: b.identity?.uid ?? '', group: b.group?.uid ?? '', role: b.role?.uid ?? '' });
}

/** A list item: the group and role hydrated, the identity's email and claims beside its uid. */
function v1ListedBinding(b: RoleBindingV2) {
  return create(RoleBindingList_BindingSchema, {
    id: b.uid,
    group: b.group && create(GroupSchema, { id: b.group.uid, name: b.group.name, description: b.group.description }),
    identity: b.identity?.uid ?? '',
    role: b.role && v1Role(b.role),
    email: b.identity?.email ?? '',
    claimMatchIssuer: b.identity?.issuer ?? '',
    claimMatchSubject: b.identity?.subject ?? '',
    createdAt: b.createTime,
  });
}

const v2Input = (parent: string, b: RoleBinding | undefined) => ({ parent, roleBinding: { identityUid: b?.identity ?? '', roleUid: b?.role ?? '' } });

async function listBindingsV1(deps: ServiceDeps, req: RoleBindingFilter, ctx: HandlerContext) {
  const uidp = narrowToId(IAM_DOMAIN, req.uidp, 'id', req.id);
  const items =
    uidp === null
      ? []
      : await allItems(iamList('/iam/v2/roleBindings'), async (pageSize, pageToken) => {
          const page = await listRoleBindings(deps, create(ListRoleBindingsRequestSchema, { uidp, pageSize, pageToken }), ctx);
          return [page.roleBindings.map(v1ListedBinding), page.nextPageToken];
        });
  return { $typeName: 'berth.iam.v1.RoleBindingList' as const, items };
}

/** PUT: a binding's identity never changes, so only its role is replaced; a different identity is refused. */
async function updateBindingV1(deps: ServiceDeps, req: RoleBinding, ctx: HandlerContext): Promise<RoleBinding> {
  if (req.identity !== '') {
    const bound = await getRoleBinding(deps, create(GetRoleBindingRequestSchema, { uid: req.id }));
    if (bound.identity?.uid !== req.identity) throw badIamRequest([{ field: 'identity', description: 'the identity of a role binding cannot change' }]);
  }
  const roleBinding = { uid: req.id, roleUid: req.role };
  return v1Binding(await updateRoleBinding(deps, create(UpdateRoleBindingRequestSchema, { roleBinding, updateMask: { paths: ['role_uid'] } }), ctx));
}

export function roleBindingsV1Service(deps: ServiceDeps): ServiceImpl<typeof RoleBindings> {
  return {
    create: async (req, ctx) => v1Binding(await createRoleBinding(deps, create(CreateRoleBindingRequestSchema, v2Input(req.parent, req.roleBinding)), ctx)),
    createBatch: async (req, ctx) => {
      const batch = create(BatchCreateRoleBindingsRequestSchema, { parent: req.parent, requests: req.roleBindings.map((b) => v2Input(req.parent, b)) });
      const res = await batchCreateRoleBindings(deps, batch, ctx);
      return { $typeName: 'berth.iam.v1.RoleBindingBatch', roleBindings: res.roleBindings.map(v1Binding) };
    },
    update: (req, ctx) => updateBindingV1(deps, req, ctx),
    list: (req, ctx) => listBindingsV1(deps, req, ctx),
    delete: (req, ctx) => deleteV1(() => deleteRoleBinding(deps, create(DeleteRoleBindingRequestSchema, { uid: req.id }), ctx)),
  };
}

// berth.iam.v1.Roles: the v1 shapes over CreateRole, UpdateRole, ListRoles
// and DeleteRole of src/iam/roles/ (same rules, same events).
import { create, type Message } from '@bufbuild/protobuf';
import type { HandlerContext, ServiceImpl } from '@connectrpc/connect';
import type { Preflights } from '../../auth/authorize.js';
import type { DeleteRoleRequest, Role, RoleFilter, Roles } from '../../gen/berth/iam/v1/roles_pb.js';
import { CreateRoleRequestSchema, DeleteRoleRequestSchema, ListRolesRequestSchema, UpdateRoleRequestSchema } from '../../gen/berth/iam/v2/roles_pb.js';
import type { ServiceDeps } from '../../runtime/service-deps.js';
import { rolePreflights } from '../roles/builtin-preflight.js';
import { createRole } from '../roles/create-role.js';
import { deleteRole } from '../roles/delete-role.js';
import { listRoles } from '../roles/list-roles.js';
import { updateRole } from '../roles/update-role.js';
import { capabilitiesOf, v1Role } from './role-v1.js';
import { deleteV1 } from './v1-delete.js';
import { allItems, checkUidFilter, narrowToId, uidpWith } from '../../list/v1-list.js';
import { iamList } from './iam-v1-list.js';
import { IAM_DOMAIN } from '../errors.js';

/** v2's built-in role refusal, before authorization, for the v1 requests. */
export const roleV1Preflights: Preflights = {
  update: (req: Message) => rolePreflights.updateRole?.(create(UpdateRoleRequestSchema, { role: { uid: (req as Role).id } })),
  delete: (req: Message) => rolePreflights.deleteRole?.(create(DeleteRoleRequestSchema, { uid: (req as DeleteRoleRequest).id })),
};

async function listRolesV1(deps: ServiceDeps, req: RoleFilter, ctx: HandlerContext) {
  checkUidFilter(IAM_DOMAIN, 'parent', req.parent);
  let uidp = narrowToId(IAM_DOMAIN, req.uidp, 'id', req.id);
  // `parent`: the roles defined directly in that group (v2's uidp.children_of).
  if (uidp !== null && req.parent !== '') {
    if (uidp?.childrenOf && uidp.childrenOf !== req.parent) uidp = null;
    else uidp = uidpWith(uidp, { childrenOf: req.parent });
  }
  const filter = uidp;
  const items =
    filter === null
      ? []
      : await allItems(iamList('/iam/v2/roles'), async (pageSize, pageToken) => {
          const page = await listRoles(deps, create(ListRolesRequestSchema, { uidp: filter, name: req.name, pageSize, pageToken }), ctx);
          return [page.roles.map(v1Role), page.nextPageToken];
        });
  return { $typeName: 'berth.iam.v1.RoleList' as const, items };
}

export function rolesV1Service(deps: ServiceDeps): ServiceImpl<typeof Roles> {
  return {
    create: async (req, ctx) => {
      const r = req.role;
      const role = { name: r?.name ?? '', description: r?.description ?? '', capabilities: capabilitiesOf(r?.capabilities ?? [], 'role.capabilities') };
      return v1Role(await createRole(deps, create(CreateRoleRequestSchema, { parent: req.parentId, role }), ctx));
    },
    update: async (req, ctx) => {
      const role = { uid: req.id, name: req.name, description: req.description, capabilities: capabilitiesOf(req.capabilities, 'capabilities') };
      const updateMask = { paths: ['name', 'description', 'capabilities'] };
      return v1Role(await updateRole(deps, create(UpdateRoleRequestSchema, { role, updateMask }), ctx));
    },
    list: (req, ctx) => listRolesV1(deps, req, ctx),
    delete: (req, ctx) => deleteV1(() => deleteRole(deps, create(DeleteRoleRequestSchema, { uid: req.id }), ctx)),
  };
}

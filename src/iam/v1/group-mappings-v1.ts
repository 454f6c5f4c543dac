// berth.iam.v1.ExternalGroupRoleMappings: the v1 shapes over the
// ExternalGroupRoleMappingsService of src/iam/group-mappings/.
import { create } from '@bufbuild/protobuf';
import type { HandlerContext, ServiceImpl } from '@connectrpc/connect';
import {
  type ExternalGroupRoleMapping,
  type ExternalGroupRoleMappingFilter,
  type ExternalGroupRoleMappings,
  ExternalGroupRoleMappingSchema,
} from '../../gen/berth/iam/v1/external_group_role_mappings_pb.js';
import {
  BatchDeleteExternalGroupRoleMappingsRequestSchema,
  CreateExternalGroupRoleMappingRequestSchema,
  DeleteExternalGroupRoleMappingRequestSchema,
  type ExternalGroupRoleMapping as MappingV2,
  GetExternalGroupRoleMappingRequestSchema,
  ListExternalGroupRoleMappingsRequestSchema,
} from '../../gen/berth/iam/v2/external_group_role_mappings_pb.js';
import type { ServiceDeps } from '../../runtime/service-deps.js';
import { batchDeleteExternalGroupRoleMappings } from '../group-mappings/batch-delete-mappings.js';
import { createExternalGroupRoleMapping } from '../group-mappings/create-mapping.js';
import { deleteExternalGroupRoleMapping } from '../group-mappings/delete-mapping.js';
import { getExternalGroupRoleMapping } from '../group-mappings/get-mapping.js';
import { listExternalGroupRoleMappings } from '../group-mappings/list-mappings.js';
import { deleteV1 } from './v1-delete.js';
import { allItems, checkUidFilter } from '../../list/v1-list.js';
import { iamList } from './iam-v1-list.js';
import { IAM_DOMAIN } from '../errors.js';

function v1Mapping(m: MappingV2): ExternalGroupRoleMapping {
  return create(ExternalGroupRoleMappingSchema, {
    id: m.uid,
    identityProviderUidp: m.identityProviderUid,
    externalGroupId: m.externalGroupId,
    roleUidp: m.roleUid,
    scope: m.scope,
    createdAt: m.createTime,
  });
}

async function listMappingsV1(deps: ServiceDeps, req: ExternalGroupRoleMappingFilter, ctx: HandlerContext) {
  checkUidFilter(IAM_DOMAIN, 'identity_provider_uidp', req.identityProviderUidp);
  const items = await allItems(iamList('/iam/v2/externalGroupRoleMappings'), async (pageSize, pageToken) => {
    const v2 = create(ListExternalGroupRoleMappingsRequestSchema, { uidp: req.uidp, identityProviderUid: req.identityProviderUidp, pageSize, pageToken });
    const page = await listExternalGroupRoleMappings(deps, v2, ctx);
    return [page.externalGroupRoleMappings.map(v1Mapping), page.nextPageToken];
  });
  return { $typeName: 'berth.iam.v1.ExternalGroupRoleMappingList' as const, items };
}

export function groupMappingsV1Service(deps: ServiceDeps): ServiceImpl<typeof ExternalGroupRoleMappings> {
  return {
    create: async (req, ctx) => {
      const m = req.mapping;
      const externalGroupRoleMapping = { externalGroupId: m?.externalGroupId ?? '', roleUid: m?.roleUidp ?? '', scope: m?.scope ?? '' };
      const v2 = create(CreateExternalGroupRoleMappingRequestSchema, { parent: req.parentId, externalGroupRoleMapping });
      return v1Mapping(await createExternalGroupRoleMapping(deps, v2, ctx));
    },
    get: async (req) => v1Mapping(await getExternalGroupRoleMapping(deps, create(GetExternalGroupRoleMappingRequestSchema, { uid: req.uid }))),
    list: (req, ctx) => listMappingsV1(deps, req, ctx),
    delete: (req, ctx) => deleteV1(() => deleteExternalGroupRoleMapping(deps, create(DeleteExternalGroupRoleMappingRequestSchema, { uid: req.id }), ctx)),
    batchDelete: async (req, ctx) => {
      const v2 = create(BatchDeleteExternalGroupRoleMappingsRequestSchema, { parent: req.parent, names: req.names });
      const res = await batchDeleteExternalGroupRoleMappings(deps, v2, ctx);
      return {
        $typeName: 'berth.iam.v1.BatchDeleteExternalGroupRoleMappingsResponse',
        parent: res.parent,
        externalGroupRoleMappings: res.externalGroupRoleMappings.map(v1Mapping),
      };
    },
  };
}

// berth.iam.v1.Identities: the v1 shapes over CreateIdentity, UpdateIdentity,
// ListIdentities, LookupIdentity and DeleteIdentity of src/iam/identities/.
import { create } from '@bufbuild/protobuf';
import type { HandlerContext, ServiceImpl } from '@connectrpc/connect';
import { type Identities, type IdentityFilter, IdentitySchema } from '../../gen/berth/iam/v1/identities_pb.js';
import {
  CreateIdentityRequestSchema,
  DeleteIdentityRequestSchema,
  ListIdentitiesRequestSchema,
  LookupIdentityRequestSchema,
  UpdateIdentityRequestSchema,
} from '../../gen/berth/iam/v2/identities_pb.js';
import type { ServiceDeps } from '../../runtime/service-deps.js';
import { createIdentity } from '../identities/create-identity.js';
import { deleteIdentity } from '../identities/delete-identity.js';
import { listIdentities } from '../identities/list-identities.js';
import { lookupIdentity } from '../identities/lookup-identity.js';
import { updateIdentity } from '../identities/update-identity.js';
import { v1Identity, v2Relationship } from './identity-v1.js';
import { deleteV1 } from './v1-delete.js';
import { allItems, narrowToId } from '../../list/v1-list.js';
import { iamList } from './iam-v1-list.js';
import { IAM_DOMAIN } from '../errors.js';

// PUT replaces what v1 shows and may write; company (v2 only) is left as it is.
const REPLACED = ['name', 'description', 'claim_match', 'static_keys'];

async function listIdentitiesV1(deps: ServiceDeps, req: IdentityFilter, ctx: HandlerContext) {
  const uidp = narrowToId(IAM_DOMAIN, req.uidp, 'id', req.id);
  const items =
    uidp === null
      ? []
      : await allItems(iamList('/iam/v2/identities'), async (pageSize, pageToken) => {
          const page = await listIdentities(deps, create(ListIdentitiesRequestSchema, { uidp, pageSize, pageToken }), ctx);
          return [page.identities.map(v1Identity), page.nextPageToken];
        });
  return { $typeName: 'berth.iam.v1.IdentityList' as const, items };
}

export function identitiesV1Service(deps: ServiceDeps): ServiceImpl<typeof Identities> {
  return {
    create: async (req, ctx) => {
      const i = req.identity;
      const identity = { name: i?.name ?? '', description: i?.description ?? '', relationship: v2Relationship(i?.relationship ?? { case: undefined }) };
      return v1Identity(await createIdentity(deps, create(CreateIdentityRequestSchema, { parent: req.parentId, identity }), ctx));
    },
    update: async (req, ctx) => {
      const identity = { uid: req.id, name: req.name, description: req.description, relationship: v2Relationship(req.relationship) };
      return v1Identity(await updateIdentity(deps, create(UpdateIdentityRequestSchema, { identity, updateMask: { paths: REPLACED } }), ctx));
    },
    list: (req, ctx) => listIdentitiesV1(deps, req, ctx),
    lookup: (req) => create(IdentitySchema, { id: lookupIdentity(create(LookupIdentityRequestSchema, { issuer: req.issuer, subject: req.subject })).uid }),
    delete: (req, ctx) => deleteV1(() => deleteIdentity(deps, create(DeleteIdentityRequestSchema, { uid: req.id }), ctx)),
  };
}

// berth.iam.v1.IdentityProviders: the v1 shapes over CreateIdentityProvider,
// UpdateIdentityProvider, ListIdentityProviders and DeleteIdentityProvider of
// src/iam/identity-providers/ (same rules, same events), and the SCIM token
// methods (scim-tokens-v1.ts). v1 has no Get, so its List shows each
// provider's SCIM state as v2's Get does.
import { create } from '@bufbuild/protobuf';
import type { HandlerContext, ServiceImpl } from '@connectrpc/connect';
import {
  type IdentityProvider,
  IdentityProvider_OIDCSchema,
  type IdentityProviderFilter,
  type IdentityProviders,
  IdentityProviderSchema,
} from '../../gen/berth/iam/v1/identity_providers_pb.js';
import {
  CreateIdentityProviderRequestSchema,
  DeleteIdentityProviderRequestSchema,
  type IdentityProvider as IdentityProviderV2,
  ListIdentityProvidersRequestSchema,
  UpdateIdentityProviderRequestSchema,
} from '../../gen/berth/iam/v2/identity_providers_pb.js';
import type { ServiceDeps } from '../../runtime/service-deps.js';
import { createIdentityProvider } from '../identity-providers/create-provider.js';
import { deleteIdentityProvider } from '../identity-providers/delete-provider.js';
import { listIdentityProviders } from '../identity-providers/list-providers.js';
import { updateIdentityProvider } from '../identity-providers/update-provider.js';
import { loadScimRows, scimOfRow } from '../scim-tokens/scim-state.js';
import { deleteV1 } from './v1-delete.js';
import { allItems, narrowToId } from '../../list/v1-list.js';
import { iamList } from './iam-v1-list.js';
import { IAM_DOMAIN } from '../errors.js';
import { scimTokensV1Methods, v1Scim } from './scim-tokens-v1.js';

type Oidc = { issuer: string; clientId: string; clientSecret: string; additionalScopes: string[]; groupsClaim: string; pkceEnabled: boolean };
const oidcFields = (o: Oidc) => ({
  issuer: o.issuer,
  clientId: o.clientId,
  clientSecret: o.clientSecret,
  additionalScopes: o.additionalScopes,
  groupsClaim: o.groupsClaim,
  pkceEnabled: o.pkceEnabled,
});

function v1Provider(p: IdentityProviderV2): IdentityProvider {
  const c = p.configuration;
  const scim = p.scim && v1Scim(p.scim);
  return create(IdentityProviderSchema, {
    id: p.uid,
    name: p.name,
    description: p.description,
    defaultRole: p.defaultRole,
    configuration: c.case === 'oidc' ? { case: 'oidc', value: create(IdentityProvider_OIDCSchema, oidcFields(c.value)) } : { case: undefined },
    scim,
  });
}

/** The v2 provider of a v1 one (the client secret included: it is write-only). */
function v2Fields(p: IdentityProvider | undefined, uid = '') {
  const c = p?.configuration;
  return {
    uid,
    name: p?.name ?? '',
    description: p?.description ?? '',
    defaultRole: p?.defaultRole ?? '',
    configuration: c?.case === 'oidc' ? { case: 'oidc' as const, value: oidcFields(c.value) } : { case: undefined },
  };
}

async function listProvidersV1(deps: ServiceDeps, req: IdentityProviderFilter, ctx: HandlerContext) {
  const uidp = narrowToId(IAM_DOMAIN, req.uidp, 'id', req.id);
  const items =
    uidp === null
      ? []
      : await allItems(iamList('/iam/v2/identityProviders'), async (pageSize, pageToken) => {
          const page = await listIdentityProviders(deps, create(ListIdentityProvidersRequestSchema, { uidp, name: req.name, pageSize, pageToken }), ctx);
          const scim = await loadScimRows(
            deps.store.db,
            page.identityProviders.map((p) => p.uid),
          );
          for (const p of page.identityProviders) p.scim = scimOfRow(scim.get(p.uid), deps.publicUrl, p.uid);
          return [page.identityProviders.map(v1Provider), page.nextPageToken];
        });
  return { $typeName: 'berth.iam.v1.IdentityProviderList' as const, items };
}

export function identityProvidersV1Service(deps: ServiceDeps): ServiceImpl<typeof IdentityProviders> {
  return {
    create: async (req, ctx) => {
      const v2 = create(CreateIdentityProviderRequestSchema, { parent: req.parentId, identityProvider: v2Fields(req.identityProvider) });
      return v1Provider(await createIdentityProvider(deps, v2, ctx));
    },
    // PUT: every field; through the `oidc` path an empty client secret keeps the stored one.
    update: async (req, ctx) => {
      const updateMask = { paths: ['name', 'description', 'default_role', 'oidc'] };
      const v2 = create(UpdateIdentityProviderRequestSchema, { identityProvider: v2Fields(req, req.id), updateMask });
      return v1Provider(await updateIdentityProvider(deps, v2, ctx));
    },
    list: (req, ctx) => listProvidersV1(deps, req, ctx),
    delete: (req, ctx) => deleteV1(() => deleteIdentityProvider(deps, create(DeleteIdentityProviderRequestSchema, { uid: req.id }), ctx)),
    ...scimTokensV1Methods(deps),
  };
}

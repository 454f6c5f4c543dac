// The SCIM token methods of berth.iam.v1.IdentityProviders over those of
// src/iam/scim-tokens/ (same rules, same events). The messages are v2's but
// for the provider's name, `identity_provider_id`; the v1 provider's `scim`
// is v2's state message field for field.
import { create } from '@bufbuild/protobuf';
import type { ServiceImpl } from '@connectrpc/connect';
import {
  GenerateScimTokenResponseSchema,
  type IdentityProvider_SCIM,
  IdentityProvider_SCIMSchema,
  type IdentityProviders,
  RegenerateScimTokenResponseSchema,
  RevokeScimTokenResponseSchema,
  SetScimEnabledResponseSchema,
} from '../../gen/berth/iam/v1/identity_providers_pb.js';
import {
  GenerateScimTokenRequestSchema,
  type IdentityProvider_SCIM as ScimV2,
  RegenerateScimTokenRequestSchema,
  RevokeScimTokenRequestSchema,
  SetScimEnabledRequestSchema,
} from '../../gen/berth/iam/v2/identity_providers_pb.js';
import type { ServiceDeps } from '../../runtime/service-deps.js';
import { generateScimToken } from '../scim-tokens/generate-scim-token.js';
import { regenerateScimToken } from '../scim-tokens/regenerate-scim-token.js';
import { revokeScimToken } from '../scim-tokens/revoke-scim-token.js';
import { setScimEnabled } from '../scim-tokens/set-scim-enabled.js';

/** v1's SCIM state: v2's, the CredentialState numbers the same. */
export function v1Scim(s: ScimV2): IdentityProvider_SCIM {
  return create(IdentityProvider_SCIMSchema, {
    enabled: s.enabled,
    endpointUrl: s.endpointUrl,
    tokenExpireTime: s.tokenExpireTime,
    previousTokenExpireTime: s.previousTokenExpireTime,
    credentialState: s.credentialState as number,
    etag: s.etag,
  });
}

/** A v2 request's or response's fields, the provider named as v1 names it. */
function v1Fields<T extends { identityProviderUid: string }>(m: T) {
  const { $typeName: _t, $unknown: _u, identityProviderUid, ...fields } = m as T & { $typeName: string; $unknown?: unknown };
  return { ...fields, identityProviderId: identityProviderUid };
}

type ScimMethods = Pick<ServiceImpl<typeof IdentityProviders>, 'generateScimToken' | 'regenerateScimToken' | 'revokeScimToken' | 'setScimEnabled'>;

export function scimTokensV1Methods(deps: ServiceDeps): ScimMethods {
  return {
    generateScimToken: async (req, ctx) => {
      const v2 = create(GenerateScimTokenRequestSchema, {
        identityProviderUid: req.identityProviderId,
        expireTime: req.expireTime,
        neverExpires: req.neverExpires,
      });
      return create(GenerateScimTokenResponseSchema, v1Fields(await generateScimToken(deps, v2, ctx)));
    },
    regenerateScimToken: async (req, ctx) => {
      const { identityProviderId, $typeName: _, ...fields } = req;
      const v2 = create(RegenerateScimTokenRequestSchema, { ...fields, identityProviderUid: identityProviderId });
      return create(RegenerateScimTokenResponseSchema, v1Fields(await regenerateScimToken(deps, v2, ctx)));
    },
    revokeScimToken: async (req, ctx) => {
      const v2 = create(RevokeScimTokenRequestSchema, { identityProviderUid: req.identityProviderId });
      return create(RevokeScimTokenResponseSchema, v1Fields(await revokeScimToken(deps, v2, ctx)));
    },
    setScimEnabled: async (req, ctx) => {
      const v2 = create(SetScimEnabledRequestSchema, { identityProviderUid: req.identityProviderId, enabled: req.enabled, etag: req.etag });
      return create(SetScimEnabledResponseSchema, v1Fields(await setScimEnabled(deps, v2, ctx)));
    },
  };
}

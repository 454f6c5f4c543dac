// berth.events.v1.Identities, the legacy identities service the deployed v1
// IAM client bundles: Create over CreateIdentity and UpdateMetadata over
// UpdateIdentityMetadata of src/iam/identities/ (same rules, same events).
// Every Berth identity lives in a group, so Create's `id` names the group on
// input (the guard checks identity.create there) and the new identity on output.
import { create } from '@bufbuild/protobuf';
import type { ServiceImpl } from '@connectrpc/connect';
import {
  type Identities,
  type Identity,
  IdentityMetadata_OnboardingQuestionsSchema,
  IdentityMetadataSchema,
  IdentitySchema,
} from '../../gen/berth/events/v1/identities_pb.js';
import {
  CreateIdentityRequestSchema,
  Identity_ClaimMatchSchema,
  Identity_StaticKeysSchema,
  type Identity as IdentityV2,
  UpdateIdentityMetadataRequestSchema,
} from '../../gen/berth/iam/v2/identities_pb.js';
import type { ServiceDeps } from '../../runtime/service-deps.js';
import { badIamRequest } from '../errors.js';
import { createIdentity } from '../identities/create-identity.js';
import { updateIdentityMetadata } from '../identities/update-identity-metadata.js';

// Legacy identities have no name; v2 requires one.
const LEGACY_NAME = 'legacy-identity';

/** The v2 relationship: static keys with `issuer_keys`, else an exact claim match. */
function relationshipOf(i: Identity): IdentityV2['relationship'] {
  const { issuer, subject } = i;
  if (i.issuerKeys !== '') {
    return { case: 'staticKeys', value: create(Identity_StaticKeysSchema, { issuer, subject, issuerKeys: i.issuerKeys, expirationTime: i.expiration }) };
  }
  if (i.expiration) throw badIamRequest([{ field: 'expiration', description: 'expiration applies to issuer_keys only' }]);
  const value = create(Identity_ClaimMatchSchema, { iss: { case: 'issuer', value: issuer }, sub: { case: 'subject', value: subject } });
  return { case: 'claimMatch', value };
}

function legacyIdentity(i: IdentityV2): Identity {
  const r = i.relationship;
  if (r.case === 'staticKeys') {
    const k = r.value;
    return create(IdentitySchema, { id: i.uid, issuer: k.issuer, subject: k.subject, issuerKeys: k.issuerKeys, expiration: k.expirationTime });
  }
  const m = r.case === 'claimMatch' ? r.value : undefined;
  return create(IdentitySchema, { id: i.uid, issuer: m?.iss.case === 'issuer' ? m.iss.value : '', subject: m?.sub.case === 'subject' ? m.sub.value : '' });
}

export function legacyIdentitiesV1Service(deps: ServiceDeps): ServiceImpl<typeof Identities> {
  return {
    create: async (req, ctx) => {
      const identity = { name: LEGACY_NAME, relationship: relationshipOf(req) };
      return legacyIdentity(await createIdentity(deps, create(CreateIdentityRequestSchema, { parent: req.id, identity }), ctx));
    },
    updateMetadata: async (req, ctx) => {
      const q = req.onboardingQuestions;
      const paths = q ? ['updates_opt_in', 'company', 'product'] : ['updates_opt_in'];
      const identityMetadata = { updatesOptIn: req.updatesOptIn, company: q?.companyName ?? '', product: q?.product ?? '' };
      const m = await updateIdentityMetadata(deps, create(UpdateIdentityMetadataRequestSchema, { identityMetadata, updateMask: { paths } }), ctx);
      const onboardingQuestions = create(IdentityMetadata_OnboardingQuestionsSchema, { companyName: m.company, product: m.product });
      return create(IdentityMetadataSchema, { onboardingQuestions, name: m.name, updatesOptIn: m.updatesOptIn });
    },
  };
}

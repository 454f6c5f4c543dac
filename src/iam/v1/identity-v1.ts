// An identity as v1 shows it and takes it: `id`, `created_at`/`updated_at`,
// `last_seen`, and the static relationship named `static` with `expiration`.
import { create } from '@bufbuild/protobuf';
import { type Identity, Identity_ClaimMatchSchema, Identity_StaticKeysSchema, IdentitySchema } from '../../gen/berth/iam/v1/identities_pb.js';
import {
  type Identity as IdentityV2,
  Identity_ClaimMatchSchema as ClaimMatchV2Schema,
  Identity_StaticKeysSchema as StaticKeysV2Schema,
} from '../../gen/berth/iam/v2/identities_pb.js';

/** ClaimMatch has the same fields in v1 and v2. */
function claimMatchFields(c: { iss: unknown; sub: unknown; aud: unknown; claims: Record<string, string>; claimPatterns: Record<string, string> }) {
  return { iss: c.iss, sub: c.sub, aud: c.aud, claims: c.claims, claimPatterns: c.claimPatterns } as never;
}

export function v1Identity(i: IdentityV2): Identity {
  const rel = i.relationship;
  let relationship: Identity['relationship'] = { case: undefined };
  if (rel.case === 'claimMatch') relationship = { case: 'claimMatch', value: create(Identity_ClaimMatchSchema, claimMatchFields(rel.value)) };
  if (rel.case === 'staticKeys') {
    const k = rel.value;
    const value = create(Identity_StaticKeysSchema, {
      issuer: k.issuer,
      subject: k.subject,
      issuerKeys: k.issuerKeys,
      expiration: k.expirationTime,
      audiences: k.audiences,
    });
    relationship = { case: 'static', value };
  }
  return create(IdentitySchema, {
    id: i.uid,
    name: i.name,
    description: i.description,
    createdAt: i.createTime,
    updatedAt: i.updateTime,
    lastSeen: i.lastSeenTime,
    relationship,
  });
}

/** The v2 relationship of a v1 identity. */
export function v2Relationship(rel: Identity['relationship']): IdentityV2['relationship'] {
  if (rel.case === 'claimMatch') return { case: 'claimMatch', value: create(ClaimMatchV2Schema, claimMatchFields(rel.value)) };
  if (rel.case === 'static') {
    const k = rel.value;
    const value = create(StaticKeysV2Schema, {
      issuer: k.issuer,
      subject: k.subject,
      issuerKeys: k.issuerKeys,
      expirationTime: k.expiration,
      audiences: k.audiences,
    });
    return { case: 'staticKeys', value };
  }
  return { case: undefined };
}

// How an identity's relationship (claimMatch or staticKeys) is stored: its
// proto JSON in one column, its exact issuer and subject in two indexed columns
// so /sts/exchange finds candidates without scanning.
import { fromJson, toJson, type JsonValue } from '@bufbuild/protobuf';
import { Identity_ClaimMatchSchema, Identity_StaticKeysSchema, type Identity } from '../../gen/berth/iam/v2/identities_pb.js';

export interface StoredRelationship {
  relationship_type: string;
  relationship: string;
  issuer: string;
  subject: string;
}

export function storeRelationship(rel: Identity['relationship']): StoredRelationship {
  switch (rel.case) {
    case 'staticKeys':
      return {
        relationship_type: 'static',
        relationship: JSON.stringify(toJson(Identity_StaticKeysSchema, rel.value)),
        issuer: rel.value.issuer,
        subject: rel.value.subject,
      };
    case 'claimMatch':
      return {
        relationship_type: 'claim_match',
        relationship: JSON.stringify(toJson(Identity_ClaimMatchSchema, rel.value)),
        issuer: rel.value.iss.case === 'issuer' ? rel.value.iss.value : '',
        subject: rel.value.sub.case === 'subject' ? rel.value.sub.value : '',
      };
    default:
      return { relationship_type: '', relationship: '{}', issuer: '', subject: '' };
  }
}

export function loadRelationship(row: { relationship_type: string; relationship: string }): Identity['relationship'] {
  const json = JSON.parse(row.relationship) as JsonValue;
  if (row.relationship_type === 'static') return { case: 'staticKeys', value: fromJson(Identity_StaticKeysSchema, json) };
  if (row.relationship_type === 'claim_match') return { case: 'claimMatch', value: fromJson(Identity_ClaimMatchSchema, json) };
  return { case: undefined };
}

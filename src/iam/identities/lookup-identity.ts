// LookupIdentity: the deterministic uid of the user identity an OIDC issuer
// and subject have, or will get when they first sign in (registration creates
// a root-level identity under exactly this uid). A hash of the pair shaped as
// a root uid, so it reveals nothing about either and needs no read: any
// authenticated caller may ask, as in the reference.
import { createHash } from 'node:crypto';
import { create } from '@bufbuild/protobuf';
import { LookupIdentityResponseSchema, type LookupIdentityRequest, type LookupIdentityResponse } from '../../gen/berth/iam/v2/identities_pb.js';
import type { FieldViolation } from '../../core/api-error.js';
import { badIamRequest } from '../errors.js';

const MAX_CLAIM = 1024;

/** The root uid of the user identity (issuer, subject): sha256 over both, length-prefixed so no two pairs collide by concatenation. */
export function userIdentityUid(issuer: string, subject: string): string {
  const h = createHash('sha256');
  for (const part of [issuer, subject]) h.update(`${Buffer.byteLength(part)}:`).update(part);
  return h.digest('hex').slice(0, 40);
}

export function lookupIdentity(req: LookupIdentityRequest): LookupIdentityResponse {
  const bad: FieldViolation[] = [];
  for (const [field, value] of [
    ['issuer', req.issuer],
    ['subject', req.subject],
  ] as const) {
    if (value === '') bad.push({ field, description: `${field} is required` });
    else if (value.length > MAX_CLAIM) bad.push({ field, description: `${field} is at most ${MAX_CLAIM} characters` });
  }
  if (bad.length > 0) throw badIamRequest(bad);
  return create(LookupIdentityResponseSchema, { uid: userIdentityUid(req.issuer, req.subject) });
}

import type { HandlerContext } from '@connectrpc/connect';
import { transact } from '../../store/transact.js';
import { create } from '@bufbuild/protobuf';
import { IdentitySchema, type CreateIdentityRequest, type Identity } from '../../gen/berth/iam/v2/identities_pb.js';
import { newChildUid } from '../../core/uidp.js';
import type { ServiceDeps } from '../../runtime/service-deps.js';
import { identityFromRow } from './identity-row.js';
import { writeIdentity } from './identity-writer.js';

export async function createIdentity(deps: ServiceDeps, req: CreateIdentityRequest, ctx: HandlerContext): Promise<Identity> {
  const incoming = req.identity ?? create(IdentitySchema);
  const identity = {
    uid: newChildUid(req.parent),
    parent: req.parent,
    name: incoming.name,
    description: incoming.description,
    company: incoming.company,
    email: '', // output only: set by sign-in flows, never by the caller
    relationship: incoming.relationship,
  };
  const row = await transact(deps.store, (tx) => writeIdentity(tx, identity, { ctx, allowInsecureIssuers: deps.allowInsecureIssuers }));
  return identityFromRow(row);
}

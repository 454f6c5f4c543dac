import type { HandlerContext } from '@connectrpc/connect';
import { emitRpcEvent } from '../../events/rpc-event.js';
import { transact } from '../../store/transact.js';
import { create } from '@bufbuild/protobuf';
import { IdentitySchema, type CreateIdentityRequest, type Identity } from '../../gen/berth/iam/v2/identities_pb.js';
import { nowIso } from '../../core/clock.js';
import { newChildUid } from '../../core/uidp.js';
import type { ServiceDeps } from '../../runtime/service-deps.js';
import { badIamRequest, groupNotFound } from '../errors.js';
import { identityFieldViolations, identityFromRow } from './identity-row.js';
import { storeRelationship } from './relationship.js';
import { checkRelationship } from './validate-relationship.js';

export async function createIdentity(deps: ServiceDeps, req: CreateIdentityRequest, ctx: HandlerContext): Promise<Identity> {
  const incoming = req.identity ?? create(IdentitySchema);
  const bad = identityFieldViolations(incoming);
  const relationship = checkRelationship(incoming.relationship, deps.allowInsecureIssuers, bad);
  if (bad.length > 0) throw badIamRequest(bad);
  const now = nowIso();
  const row = {
    uid: newChildUid(req.parent),
    parent_uid: req.parent,
    name: incoming.name,
    description: incoming.description,
    company: incoming.company,
    email: '', // output only: set by sign-in flows, never by the caller
    last_seen_time: now,
    create_time: now,
    update_time: now,
    ...storeRelationship(relationship),
  };
  await transact(deps.store, async (tx) => {
    const parent = await tx.selectFrom('groups').select('uid').where('uid', '=', req.parent).executeTakeFirst();
    if (!parent) throw groupNotFound(req.parent);
    await tx.insertInto('identities').values(row).execute();
    await emitRpcEvent(tx, ctx, { group: req.parent, subject: row.uid, schema: IdentitySchema, message: identityFromRow(row) });
  });
  return identityFromRow(row);
}

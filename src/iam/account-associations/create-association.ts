import { create } from '@bufbuild/protobuf';
import type { HandlerContext } from '@connectrpc/connect';
import { emitRpcEvent } from '../../events/rpc-event.js';
import { AccountAssociationSchema, type AccountAssociation, type CreateAccountAssociationRequest } from '../../gen/berth/iam/v2/account_associations_pb.js';
import { nowIso } from '../../core/clock.js';
import { parentOf } from '../../core/uidp.js';
import type { ServiceDeps } from '../../runtime/service-deps.js';
import { transact } from '../../store/transact.js';
import { accountAssociationExists, badIamRequest, groupNotFound } from '../errors.js';
import { associationFromRow, storeProviders } from './association-row.js';
import { associationViolations } from './association-rules.js';

/** The association of the group `parent`: its uid is the group's uid, one per group. */
export async function createAccountAssociation(deps: ServiceDeps, req: CreateAccountAssociationRequest, ctx: HandlerContext): Promise<AccountAssociation> {
  const incoming = req.accountAssociation ?? create(AccountAssociationSchema);
  const bad = associationViolations(incoming);
  if (bad.length > 0) throw badIamRequest(bad);
  const now = nowIso();
  const row = {
    uid: req.parent,
    parent_uid: parentOf(req.parent) || null,
    name: incoming.name,
    description: incoming.description,
    providers: storeProviders(incoming),
    create_time: now,
    update_time: now,
  };
  await transact(deps.store, async (tx) => {
    const group = await tx.selectFrom('groups').select('uid').where('uid', '=', req.parent).executeTakeFirst();
    if (!group) throw groupNotFound(req.parent);
    const taken = await tx.selectFrom('account_associations').select('uid').where('uid', '=', req.parent).executeTakeFirst();
    if (taken) throw accountAssociationExists(req.parent);
    await tx.insertInto('account_associations').values(row).execute();
    await emitRpcEvent(tx, ctx, { group: req.parent, subject: req.parent, schema: AccountAssociationSchema, message: associationFromRow(row) });
  });
  return associationFromRow(row);
}

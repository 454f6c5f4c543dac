// DenyGroupAccessRequest (Berth's own): marks a pending request denied. The
// requester may ask again a day later (access-standing.ts).
import type { HandlerContext } from '@connectrpc/connect';
import { GroupAccessRequestSchema, type DenyGroupAccessRequestRequest, type GroupAccessRequest } from '../../gen/berth/iam/v2/groups_pb.js';
import { callerOf } from '../../auth/caller.js';
import { emitRpcEvent } from '../../events/rpc-event.js';
import type { ServiceDeps } from '../../runtime/service-deps.js';
import { transact } from '../../store/transact.js';
import { IAM_DOMAIN } from '../errors.js';
import { accessRequestFromRow } from './access-request-row.js';
import { pendingRequest, recordDecision } from './decide-access-request.js';

export async function denyGroupAccessRequest(deps: ServiceDeps, req: DenyGroupAccessRequestRequest, ctx: HandlerContext): Promise<GroupAccessRequest> {
  const caller = callerOf(ctx, IAM_DOMAIN);
  return transact(deps.store, async (tx) => {
    const row = await pendingRequest(tx, req.uid);
    const decided = accessRequestFromRow(await recordDecision(tx, row, { state: 'denied', by: caller.identityUid }));
    await emitRpcEvent(tx, ctx, { group: row.parent_uid, subject: row.uid, schema: GroupAccessRequestSchema, message: decided });
    return decided;
  });
}

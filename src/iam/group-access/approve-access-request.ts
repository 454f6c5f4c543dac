// ApproveGroupAccessRequest (Berth's own): binds a role — the built-in viewer
// unless role_uid names another — to the requester on the organization, through
// the role-binding rules every binding passes (insertBinding: the role exists
// and is defined there or above, the caller holds every capability it grants,
// no duplicate), and marks the request approved. One event, as for every RPC:
// the request's approved, whose body names the binding made (as accepting an
// invite writes only its registration).
import type { HandlerContext } from '@connectrpc/connect';
import { GroupAccessRequestSchema, type ApproveGroupAccessRequestRequest, type GroupAccessRequest } from '../../gen/berth/iam/v2/groups_pb.js';
import { callerOf } from '../../auth/caller.js';
import { isValidUid } from '../../core/uidp.js';
import { emitRpcEvent } from '../../events/rpc-event.js';
import type { ServiceDeps } from '../../runtime/service-deps.js';
import { transact } from '../../store/transact.js';
import { badIamRequest, IAM_DOMAIN } from '../errors.js';
import { insertBinding, ROLE_SCOPE_RULE, roleOutsideGroup } from '../role-bindings/binding-rules.js';
import { builtinRoleByName } from '../roles/builtin-roles.js';
import { accessRequestFromRow } from './access-request-row.js';
import { pendingRequest, recordDecision } from './decide-access-request.js';

export async function approveGroupAccessRequest(deps: ServiceDeps, req: ApproveGroupAccessRequestRequest, ctx: HandlerContext): Promise<GroupAccessRequest> {
  const caller = callerOf(ctx, IAM_DOMAIN);
  if (req.roleUid !== '' && !isValidUid(req.roleUid)) throw badIamRequest([{ field: 'role_uid', description: 'role_uid is not a valid uid' }]);
  const roleUid = req.roleUid === '' ? builtinRoleByName('viewer')!.uid : req.roleUid;
  return transact(deps.store, async (tx) => {
    const row = await pendingRequest(tx, req.uid);
    if (roleOutsideGroup(roleUid, row.parent_uid)) throw badIamRequest([{ field: 'role_uid', description: ROLE_SCOPE_RULE }]);
    const bound = await insertBinding(tx, caller, { parent: row.parent_uid, identityUid: row.identity_uid, roleUid, field: 'role_binding' });
    const decided = accessRequestFromRow(await recordDecision(tx, row, { state: 'approved', by: caller.identityUid, roleBindingUid: bound.uid }));
    await emitRpcEvent(tx, ctx, { group: row.parent_uid, subject: row.uid, schema: GroupAccessRequestSchema, message: decided });
    return decided;
  });
}

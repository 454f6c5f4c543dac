// RequestGroupAccess: records the caller's request to join the organization
// of its verified email domain, with its event (to the organization's
// subscriptions, so its owners hear of it: the subject is the access request,
// the actor the requester, the body the RPC's request, as it answers nothing). Any other group uid is NOT_FOUND,
// whether or not it exists; a request already pending, or denied less than a
// day ago, is RESOURCE_EXHAUSTED. The caller's identity row is locked first,
// so two concurrent requests of one caller make one row.
import { create } from '@bufbuild/protobuf';
import type { HandlerContext } from '@connectrpc/connect';
import {
  RequestGroupAccessRequestSchema,
  RequestGroupAccessResponseSchema,
  type RequestGroupAccessRequest,
  type RequestGroupAccessResponse,
} from '../../gen/berth/iam/v2/groups_pb.js';
import { callerOf } from '../../auth/caller.js';
import { nowIso } from '../../core/clock.js';
import { isValidUid, newChildUid } from '../../core/uidp.js';
import { emitRpcEvent } from '../../events/rpc-event.js';
import type { ServiceDeps } from '../../runtime/service-deps.js';
import { capabilitiesOf } from '../../store/db-capabilities.js';
import { transact } from '../../store/transact.js';
import { accessRequestRepeated, alreadyMember, badIamRequest, IAM_DOMAIN, noOrganizationForCaller } from '../errors.js';
import { accessStanding } from './access-standing.js';
import type { GroupAccessRequestsTable } from './group-access-tables.js';

export async function requestGroupAccess(deps: ServiceDeps, req: RequestGroupAccessRequest, ctx: HandlerContext): Promise<RequestGroupAccessResponse> {
  const caller = callerOf(ctx, IAM_DOMAIN);
  if (req.groupUid === '') throw badIamRequest([{ field: 'group_uid', description: 'group_uid is required' }]);
  if (!isValidUid(req.groupUid)) throw badIamRequest([{ field: 'group_uid', description: 'group_uid is not a valid uid' }]);
  await transact(deps.store, async (tx) => {
    await capabilitiesOf(tx)
      .lockRows(tx.selectFrom('identities').select('uid').where('uid', '=', caller.identityUid), 'exclusive')
      .execute();
    const standing = await accessStanding(tx, caller.identityUid);
    if (standing.kind === 'no-organization' || standing.org.uid !== req.groupUid) throw noOrganizationForCaller(req.groupUid);
    if (standing.kind === 'member') throw alreadyMember(standing.org.uid);
    if (standing.kind === 'waiting') throw accessRequestRepeated();
    const now = nowIso();
    const row: GroupAccessRequestsTable = {
      uid: newChildUid(standing.org.uid),
      parent_uid: standing.org.uid,
      identity_uid: caller.identityUid,
      email: standing.email,
      state: 'pending',
      role_binding_uid: '',
      decided_by: '',
      decide_time: null,
      create_time: now,
      update_time: now,
    };
    await tx.insertInto('group_access_requests').values(row).execute();
    await emitRpcEvent(tx, ctx, { group: row.parent_uid, subject: row.uid, schema: RequestGroupAccessRequestSchema, message: req });
  });
  return create(RequestGroupAccessResponseSchema);
}

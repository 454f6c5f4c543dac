import { create } from '@bufbuild/protobuf';
import { GroupAccessRequest_State, GroupAccessRequestSchema, type GroupAccessRequest } from '../../gen/berth/iam/v2/groups_pb.js';
import { isoToTimestamp } from '../../core/clock.js';
import type { Executor } from '../../store/transact.js';
import { accessRequestNotFound } from '../errors.js';
import type { AccessRequestState, GroupAccessRequestsTable } from './group-access-tables.js';

const STATES: Record<AccessRequestState, GroupAccessRequest_State> = {
  pending: GroupAccessRequest_State.PENDING,
  approved: GroupAccessRequest_State.APPROVED,
  denied: GroupAccessRequest_State.DENIED,
};

/** The stored name of an API state; undefined for UNSPECIFIED. */
export function storedState(state: GroupAccessRequest_State): AccessRequestState | undefined {
  return (Object.keys(STATES) as AccessRequestState[]).find((k) => STATES[k] === state);
}

export function accessRequestFromRow(row: GroupAccessRequestsTable): GroupAccessRequest {
  return create(GroupAccessRequestSchema, {
    uid: row.uid,
    groupUid: row.parent_uid,
    identityUid: row.identity_uid,
    email: row.email,
    state: STATES[row.state],
    roleBindingUid: row.role_binding_uid,
    decidedBy: row.decided_by,
    createTime: isoToTimestamp(row.create_time),
    updateTime: isoToTimestamp(row.update_time),
    decideTime: row.decide_time === null ? undefined : isoToTimestamp(row.decide_time),
  });
}

export async function loadAccessRequestRow(db: Executor, uid: string): Promise<GroupAccessRequestsTable> {
  const row = await db.selectFrom('group_access_requests').selectAll().where('uid', '=', uid).executeTakeFirst();
  if (!row) throw accessRequestNotFound(uid);
  return row;
}

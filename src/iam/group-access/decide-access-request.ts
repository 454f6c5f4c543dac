// What approving and denying share: the request, locked, must still be
// pending; it is then marked with the decision, who made it and when.
import type { Tx } from '../../store/transact.js';
import { capabilitiesOf } from '../../store/db-capabilities.js';
import { nowIso } from '../../core/clock.js';
import { accessRequestDecided } from '../errors.js';
import { loadAccessRequestRow } from './access-request-row.js';
import type { GroupAccessRequestsTable } from './group-access-tables.js';

/** The pending request `uid`, locked for this transaction; NOT_FOUND or FAILED_PRECONDITION otherwise. */
export async function pendingRequest(tx: Tx, uid: string): Promise<GroupAccessRequestsTable> {
  await capabilitiesOf(tx)
    .lockRows(tx.selectFrom('group_access_requests').select('uid').where('uid', '=', uid), 'exclusive')
    .execute();
  const row = await loadAccessRequestRow(tx, uid);
  if (row.state !== 'pending') throw accessRequestDecided(row.uid, row.state);
  return row;
}

/** Records the decision on `row`; the row as stored. */
export async function recordDecision(
  tx: Tx,
  row: GroupAccessRequestsTable,
  decision: { state: 'approved' | 'denied'; by: string; roleBindingUid?: string },
): Promise<GroupAccessRequestsTable> {
  const now = nowIso();
  const changes = { state: decision.state, decided_by: decision.by, role_binding_uid: decision.roleBindingUid ?? '', decide_time: now, update_time: now };
  await tx.updateTable('group_access_requests').set(changes).where('uid', '=', row.uid).execute();
  return { ...row, ...changes };
}

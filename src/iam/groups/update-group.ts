import type { HandlerContext } from '@connectrpc/connect';
import { emitRpcEvent } from '../../events/rpc-event.js';
import { transact } from '../../store/transact.js';
import { GroupSchema, type Group, type UpdateGroupRequest } from '../../gen/berth/iam/v2/groups_pb.js';
import { nowIso } from '../../core/clock.js';
import { applyFields, fieldsToUpdate } from '../../core/field-mask.js';
import type { ServiceDeps } from '../../runtime/service-deps.js';
import { badIamRequest, IAM_DOMAIN, rootGroupNameTaken } from '../errors.js';
import { groupFromRow, groupViolations, loadGroupRow } from './group-row.js';

export async function updateGroup(deps: ServiceDeps, req: UpdateGroupRequest, ctx: HandlerContext): Promise<Group> {
  const incoming = req.group!; // the guard has checked group.uid
  const fields = fieldsToUpdate(GroupSchema, incoming, req.updateMask, IAM_DOMAIN);
  return transact(deps.store, async (tx) => {
    const row = await loadGroupRow(tx, incoming.uid);
    const merged = applyFields(GroupSchema, groupFromRow(row), incoming, fields);
    const bad = groupViolations(merged.name, merged.description);
    if (bad.length > 0) throw badIamRequest(bad);
    // Organization names are unique (index groups_root_name); subgroup names are not.
    if (row.parent_uid === null && merged.name !== row.name) {
      const taken = await tx.selectFrom('groups').select('uid').where('parent_uid', 'is', null).where('name', '=', merged.name).executeTakeFirst();
      if (taken) throw rootGroupNameTaken(merged.name);
    }
    const next = { ...row, name: merged.name, description: merged.description, update_time: nowIso() };
    await tx.updateTable('groups').set({ name: next.name, description: next.description, update_time: next.update_time }).where('uid', '=', row.uid).execute();
    const group = groupFromRow(next);
    await emitRpcEvent(tx, ctx, { group: row.uid, subject: row.uid, schema: GroupSchema, message: group });
    return group;
  });
}

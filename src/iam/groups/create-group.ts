// CreateGroup is unscoped in the proto (a new root organization has no parent
// to check against), so the permission checks live here instead of the guard.
import { transact } from '../../store/transact.js';
import type { HandlerContext } from '@connectrpc/connect';
import { Capability } from '../../gen/berth/capabilities/v1/capabilities_pb.js';
import { GroupSchema, type CreateGroupRequest, type Group } from '../../gen/berth/iam/v2/groups_pb.js';
import { emitRpcEvent } from '../../events/rpc-event.js';
import { callerOf } from '../../auth/caller.js';
import { builtinRoleByName } from '../roles/builtin-roles.js';
import { nowIso } from '../../core/clock.js';
import { isValidUid, newChildUid, newRootUid } from '../../core/uidp.js';
import type { ServiceDeps } from '../../runtime/service-deps.js';
import { badIamRequest, groupNotFound, IAM_DOMAIN, rootGroupNameTaken } from '../errors.js';
import { groupFromRow, groupViolations } from './group-row.js';
import { requireOrgCreation } from './org-creation.js';
import { writeBinding } from '../role-bindings/write-binding.js';

const CREATE = Capability.CAP_IAM_GROUPS_CREATE;

export async function createGroup(deps: ServiceDeps, req: CreateGroupRequest, ctx: HandlerContext): Promise<Group> {
  const caller = callerOf(ctx, IAM_DOMAIN);
  const parent = req.parent;
  if (parent !== '' && !isValidUid(parent)) {
    throw badIamRequest([{ field: 'parent', description: `"${parent.slice(0, 80)}" is not a valid uid` }]);
  }
  // Permission before existence, so callers cannot probe for group uids.
  if (parent !== '') await caller.require(IAM_DOMAIN, [CREATE], parent);
  else await requireOrgCreation(caller, deps.orgCreation);
  const name = req.group?.name ?? '';
  const description = req.group?.description ?? '';
  const bad = groupViolations(name, description);
  if (bad.length > 0) throw badIamRequest(bad);

  const now = nowIso();
  const row = {
    uid: parent === '' ? newRootUid() : newChildUid(parent),
    parent_uid: parent === '' ? null : parent,
    name,
    description,
    verified: 0,
    create_time: now,
    update_time: now,
  };
  await transact(deps.store, async (tx) => {
    if (parent !== '') {
      const found = await tx.selectFrom('groups').select('uid').where('uid', '=', parent).executeTakeFirst();
      if (!found) throw groupNotFound(parent);
    } else {
      const taken = await tx.selectFrom('groups').select('uid').where('parent_uid', 'is', null).where('name', '=', name).executeTakeFirst();
      if (taken) throw rootGroupNameTaken(name);
    }
    await tx.insertInto('groups').values(row).execute();
    if (parent === '') {
      // Whoever creates an organization owns it; otherwise nobody could use it.
      await writeBinding(tx, { parent: row.uid, identityUid: caller.identityUid, roleUid: builtinRoleByName('owner')!.uid });
    }
    await emitRpcEvent(tx, ctx, { group: row.uid, subject: row.uid, schema: GroupSchema, message: groupFromRow(row) });
  });
  return groupFromRow(row);
}

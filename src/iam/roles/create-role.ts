import { transact } from '../../store/transact.js';
import type { HandlerContext } from '@connectrpc/connect';
import { RoleSchema, type CreateRoleRequest, type Role } from '../../gen/berth/iam/v2/roles_pb.js';
import { emitRpcEvent } from '../../events/rpc-event.js';
import { callerOf } from '../../auth/caller.js';
import { nowIso } from '../../core/clock.js';
import { newChildUid } from '../../core/uidp.js';
import type { ServiceDeps } from '../../runtime/service-deps.js';
import { badIamRequest, groupNotFound, IAM_DOMAIN } from '../errors.js';
import { roleFromRow } from './role-row.js';
import { normalizeCapabilities, roleViolations } from './role-rules.js';

export async function createRole(deps: ServiceDeps, req: CreateRoleRequest, ctx: HandlerContext): Promise<Role> {
  const name = req.role?.name ?? '';
  const description = req.role?.description ?? '';
  const caps = normalizeCapabilities(req.role?.capabilities ?? []);
  const bad = roleViolations(name, description, caps);
  if (bad.length > 0) throw badIamRequest(bad);
  // Anti-escalation: nobody can write a role granting more than they hold here.
  await callerOf(ctx, IAM_DOMAIN).require(IAM_DOMAIN, caps, req.parent);
  const now = nowIso();
  const row = {
    uid: newChildUid(req.parent),
    parent_uid: req.parent,
    name,
    description,
    capabilities: JSON.stringify(caps),
    builtin: 0,
    create_time: now,
    update_time: now,
  };
  await transact(deps.store, async (tx) => {
    const parent = await tx.selectFrom('groups').select('uid').where('uid', '=', req.parent).executeTakeFirst();
    if (!parent) throw groupNotFound(req.parent);
    await tx.insertInto('roles').values(row).execute();
    await emitRpcEvent(tx, ctx, { group: req.parent, subject: row.uid, schema: RoleSchema, message: roleFromRow(row) });
  });
  return roleFromRow(row);
}

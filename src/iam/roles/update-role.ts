import { transact } from '../../store/transact.js';
import type { HandlerContext } from '@connectrpc/connect';
import { RoleSchema, type Role, type UpdateRoleRequest } from '../../gen/berth/iam/v2/roles_pb.js';
import { callerOf } from '../../auth/caller.js';
import { emitRpcEvent } from '../../events/rpc-event.js';
import { nowIso } from '../../core/clock.js';
import { applyFields, fieldsToUpdate } from '../../core/field-mask.js';
import type { ServiceDeps } from '../../runtime/service-deps.js';
import { badIamRequest, builtinRoleImmutable, IAM_DOMAIN } from '../errors.js';
import { loadRoleRow, roleFromRow } from './role-row.js';
import { normalizeCapabilities, roleViolations } from './role-rules.js';
import { keepOwners } from '../role-bindings/owner-bindings.js';

export async function updateRole(deps: ServiceDeps, req: UpdateRoleRequest, ctx: HandlerContext): Promise<Role> {
  const incoming = req.role!; // the guard has checked role.uid
  const fields = fieldsToUpdate(RoleSchema, incoming, req.updateMask, IAM_DOMAIN);
  const caller = callerOf(ctx, IAM_DOMAIN);
  return transact(deps.store, async (tx) => {
    const row = await loadRoleRow(tx, incoming.uid);
    if (row.builtin === 1) throw builtinRoleImmutable(row.uid);
    const merged = applyFields(RoleSchema, roleFromRow(row), incoming, fields);
    const caps = normalizeCapabilities(merged.capabilities);
    const bad = roleViolations(merged.name, merged.description, caps);
    if (bad.length > 0) throw badIamRequest(bad);
    // Anti-escalation, as on create: the role's capabilities apply at its group.
    await caller.require(IAM_DOMAIN, caps, row.parent_uid ?? ''); // custom roles always have a group
    const next = { ...row, name: merged.name, description: merged.description, capabilities: JSON.stringify(caps), update_time: nowIso() };
    // Narrowing a role may take owner away from an organization's last owner binding.
    await keepOwners(tx, { role: row.uid }, () =>
      tx
        .updateTable('roles')
        .set({ name: next.name, description: next.description, capabilities: next.capabilities, update_time: next.update_time })
        .where('uid', '=', row.uid)
        .execute(),
    );
    const role = roleFromRow(next);
    await emitRpcEvent(tx, ctx, { group: row.parent_uid ?? '', subject: row.uid, schema: RoleSchema, message: role });
    return role;
  });
}

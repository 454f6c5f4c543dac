import { transact } from '../../store/transact.js';
import type { HandlerContext } from '@connectrpc/connect';
import { RoleBindingSchema, type RoleBinding, type UpdateRoleBindingRequest } from '../../gen/berth/iam/v2/role_bindings_pb.js';
import { Capability } from '../../gen/berth/capabilities/v1/capabilities_pb.js';
import { callerOf } from '../../auth/caller.js';
import { emitRpcEvent } from '../../events/rpc-event.js';
import { fieldsToUpdate } from '../../core/field-mask.js';
import type { ServiceDeps } from '../../runtime/service-deps.js';
import { badIamRequest, IAM_DOMAIN, roleBindingNotFound } from '../errors.js';
import { loadHydrated } from './binding-row.js';
import { insertBinding } from './binding-rules.js';
import { keepOwners } from './owner-bindings.js';
import { roleCapabilities } from '../roles/role-row.js';

/**
 * Only the role can change. The new role passes every check a new binding
 * would (scope, anti-escalation, duplicates), so the row is re-validated by
 * deleting and re-inserting it with the same uid in one transaction. The
 * caller needs role_bindings.update (not .create) at the binding's group, plus
 * every capability of the old role there (taking it away is a delete) and of
 * the new one. An organization keeps one owner binding (keepOwners). An
 * update that keeps the role changes nothing and emits no event.
 */
export async function updateRoleBinding(deps: ServiceDeps, req: UpdateRoleBindingRequest, ctx: HandlerContext): Promise<RoleBinding> {
  const incoming = req.roleBinding!; // the guard has checked role_binding.uid
  const fields = fieldsToUpdate(RoleBindingSchema, incoming, req.updateMask, IAM_DOMAIN);
  const caller = callerOf(ctx, IAM_DOMAIN);
  // identity_uid may ride along empty or unchanged (mask "*", as Terraform sends the whole binding); anything else is not updatable.
  const onlyRole = (field: string) => badIamRequest([{ field: `role_binding.${field}`, description: 'only role_uid can be updated' }]);
  const other = fields.find((f) => f.name !== 'role_uid' && f.name !== 'identity_uid');
  if (other) throw onlyRole(other.name);
  const identitySent = fields.some((f) => f.name === 'identity_uid') && incoming.identityUid !== '';
  return transact(deps.store, async (tx) => {
    const row = await tx
      .selectFrom('role_bindings as rb')
      .innerJoin('roles as r', 'r.uid', 'rb.role_uid')
      .selectAll('rb')
      .select('r.capabilities as capabilities')
      .where('rb.uid', '=', incoming.uid)
      .executeTakeFirst();
    if (!row) throw roleBindingNotFound(incoming.uid);
    if (identitySent && incoming.identityUid !== row.identity_uid) throw onlyRole('identity_uid');
    if (!fields.some((f) => f.name === 'role_uid') || incoming.roleUid === row.role_uid) return loadHydrated(tx, row.uid);
    await caller.require(IAM_DOMAIN, [Capability.CAP_IAM_ROLE_BINDINGS_UPDATE, ...roleCapabilities(row)], row.parent_uid);
    await keepOwners(tx, { bindings: [row.uid] }, async () => {
      await tx.deleteFrom('role_bindings').where('uid', '=', row.uid).execute();
      await insertBinding(tx, caller, {
        parent: row.parent_uid,
        identityUid: row.identity_uid,
        roleUid: incoming.roleUid,
        field: 'role_binding',
        keep: { uid: row.uid, createTime: row.create_time },
        writeCapability: Capability.CAP_IAM_ROLE_BINDINGS_UPDATE,
      });
    });
    const binding = await loadHydrated(tx, row.uid);
    await emitRpcEvent(tx, ctx, { group: row.parent_uid, subject: row.uid, schema: RoleBindingSchema, message: binding });
    return binding;
  });
}

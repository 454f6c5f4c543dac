// The one function that writes a role binding. Every path — the RoleBindings
// RPCs after their checks, the owner of a new organization, accepting an
// invite, first start, owner recovery and the external group mapping sync at
// sign in — ends here, so the identity-scope invariant holds for all of them,
// whoever forgets to check it first. Changes that remove bindings run through
// keepOwners (owner-bindings.ts), so an organization keeps an owner.
import { bindingWithinIdentityScope, IDENTITY_SCOPE_RULE } from '../../auth/identity-scope.js';
import { nowIso } from '../../core/clock.js';
import { newChildUid } from '../../core/uidp.js';
import type { RoleBindingsTable } from '../iam-tables.js';
import type { Tx } from '../../store/transact.js';
import { badIamRequest } from '../errors.js';

export interface BindingRow {
  parent: string;
  identityUid: string;
  roleUid: string;
  /** Kept when an update re-writes an existing binding. */
  keep?: { uid: string; createTime: string };
  /** Field of the violation when the scope rule fails. */
  identityField?: string;
  /** The external group role mapping making this binding (sign in); absent for every other writer. */
  mappingUid?: string;
}

export async function writeBinding(tx: Tx, b: BindingRow): Promise<RoleBindingsTable> {
  if (!bindingWithinIdentityScope(b.identityUid, b.parent)) {
    throw badIamRequest([{ field: b.identityField ?? 'identityUid', description: IDENTITY_SCOPE_RULE }]);
  }
  const now = nowIso();
  const row = {
    uid: b.keep?.uid ?? newChildUid(b.parent),
    parent_uid: b.parent,
    identity_uid: b.identityUid,
    role_uid: b.roleUid,
    mapping_uid: b.mappingUid ?? null,
    create_time: b.keep?.createTime ?? now,
    update_time: now,
  };
  await tx.insertInto('role_bindings').values(row).execute();
  return row;
}

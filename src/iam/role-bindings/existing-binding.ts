// Whether an identity already holds a role on a group: a binding is unique by
// (group, identity, role), and creating, updating, accepting an invite and the
// sign-in group sync all ask before they write.
import type { Executor } from '../../store/transact.js';

/** The uid of the binding of `roleUid` to `identityUid` on `group`, or undefined. */
export async function existingBinding(ex: Executor, group: string, identityUid: string, roleUid: string): Promise<string | undefined> {
  const row = await ex
    .selectFrom('role_bindings')
    .select('uid')
    .where('parent_uid', '=', group)
    .where('identity_uid', '=', identityUid)
    .where('role_uid', '=', roleUid)
    .executeTakeFirst();
  return row?.uid;
}

// A group is deleted only when empty: child groups, repos, identities and
// custom roles must go first. Role bindings made on the group itself are part
// of the group and go with it.
import { transact } from '../../store/transact.js';
import type { DeleteGroupRequest } from '../../gen/berth/iam/v2/groups_pb.js';
import type { ServiceDeps } from '../../store/service-deps.js';
import { groupNotEmpty, groupNotFound } from '../errors.js';

const CHILD_TABLES = ['groups', 'repos', 'identities'] as const;

export async function deleteGroup(deps: ServiceDeps, req: DeleteGroupRequest): Promise<Record<string, never>> {
  await transact(deps.store, async (tx) => {
    const found = await tx.selectFrom('groups').select('uid').where('uid', '=', req.uid).executeTakeFirst();
    if (!found) throw groupNotFound(req.uid);
    for (const table of CHILD_TABLES) {
      const child = await tx.selectFrom(table).select('uid').where('parent_uid', '=', req.uid).limit(1).executeTakeFirst();
      if (child) throw groupNotEmpty(`cannot delete group with child ${table}`);
    }
    // Built-in roles live at the root with parent "", so they never match; the filter says why.
    const role = await tx.selectFrom('roles').select('uid').where('parent_uid', '=', req.uid).where('builtin', '=', 0).limit(1).executeTakeFirst();
    if (role) throw groupNotEmpty('cannot delete group with child roles');
    await tx.deleteFrom('role_bindings').where('parent_uid', '=', req.uid).execute();
    await tx.deleteFrom('groups').where('uid', '=', req.uid).execute();
  });
  return {};
}

// CreateGroup is unscoped in the proto (a new root organization has no parent
// to check against), so the permission checks live here instead of the guard.
import { transact } from '../../store/transact.js';
import type { HandlerContext } from '@connectrpc/connect';
import { Capability } from '../../gen/berth/capabilities/v1/capabilities_pb.js';
import type { CreateGroupRequest, Group } from '../../gen/berth/iam/v2/groups_pb.js';
import { callerOf } from '../../auth/caller.js';
import { builtinRoleByName } from '../roles/builtin-roles.js';
import { isValidUid } from '../../core/uidp.js';
import type { ServiceDeps } from '../../runtime/service-deps.js';
import { badIamRequest, IAM_DOMAIN } from '../errors.js';
import { groupFromRow } from './group-row.js';
import { writeGroup } from './group-writer.js';
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
  const group = { parent, name: req.group?.name ?? '', description: req.group?.description ?? '' };
  const row = await transact(deps.store, async (tx) => {
    const written = await writeGroup(tx, group, { ctx });
    if (parent === '') {
      // Whoever creates an organization owns it; otherwise nobody could use it.
      await writeBinding(tx, { parent: written.uid, identityUid: caller.identityUid, roleUid: builtinRoleByName('owner')!.uid });
    }
    return written;
  });
  return groupFromRow(row);
}

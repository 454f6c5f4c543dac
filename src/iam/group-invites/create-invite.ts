// An invite is a role binding promised to whoever presents its code, so
// beyond the annotation's group_invites.create and role_bindings.create the
// creator must hold every capability of the role at the group: no one can
// invite others into more than they have (the same rule as for bindings).
import type { HandlerContext } from '@connectrpc/connect';
import { create } from '@bufbuild/protobuf';
import { GroupInviteSchema, type CreateGroupInviteRequest, type GroupInvite } from '../../gen/berth/iam/v2/group_invites_pb.js';
import { callerOf } from '../../auth/caller.js';
import { emitRpcEvent } from '../../events/rpc-event.js';
import type { FieldViolation } from '../../core/api-error.js';
import { newChildUid } from '../../core/uidp.js';
import type { ServiceDeps } from '../../runtime/service-deps.js';
import { transact } from '../../store/transact.js';
import { badIamRequest, groupNotFound, IAM_DOMAIN, roleNotFound } from '../errors.js';
import { roleCapabilities } from '../roles/role-row.js';
import { newInviteCode } from './invite-code.js';
import { inviteEventBody, inviteFromRow } from './invite-row.js';
import { inviteEmail, roleViolations, ttlMs } from './invite-rules.js';

export async function createGroupInvite(deps: ServiceDeps, req: CreateGroupInviteRequest, ctx: HandlerContext): Promise<GroupInvite> {
  const caller = callerOf(ctx, IAM_DOMAIN);
  const incoming = req.groupInvite ?? create(GroupInviteSchema);
  const bad: FieldViolation[] = [];
  roleViolations(incoming.roleUid, req.parent, bad);
  const ttl = ttlMs(incoming.ttl, bad);
  const email = inviteEmail(incoming.email, bad);
  if (bad.length > 0) throw badIamRequest(bad);

  const { code, keyId, hash } = newInviteCode();
  return transact(deps.store, async (tx) => {
    const group = await tx.selectFrom('groups').select('uid').where('uid', '=', req.parent).executeTakeFirst();
    if (!group) throw groupNotFound(req.parent);
    const role = await tx.selectFrom('roles').select(['uid', 'name', 'description', 'capabilities']).where('uid', '=', incoming.roleUid).executeTakeFirst();
    if (!role) throw roleNotFound(incoming.roleUid);
    await caller.require(IAM_DOMAIN, roleCapabilities(role), req.parent);
    const now = new Date();
    const row = {
      uid: newChildUid(req.parent),
      parent_uid: req.parent,
      role_uid: role.uid,
      email,
      single_use: incoming.singleUse ? 1 : 0,
      key_id: keyId,
      code_hash: hash,
      expiration_time: new Date(now.getTime() + ttl).toISOString(),
      used_time: null,
      used_by: null,
      // Who vouches for the role: acceptance re-checks that it still could bind it here.
      created_by: caller.identityUid,
      create_time: now.toISOString(),
      update_time: now.toISOString(),
    };
    await tx.insertInto('group_invites').values(row).execute();
    const invite = inviteFromRow(row, role, code);
    await emitRpcEvent(tx, ctx, { group: req.parent, subject: row.uid, schema: GroupInviteSchema, message: inviteEventBody(invite) });
    return invite;
  });
}

// Accepting an invite (AuthService.Register): the caller presents a code and
// is bound the invite's role on its group, in one transaction.
//
// Every answer about the invite's state comes after the code's secret has
// matched, so only a holder of the real code learns that it expired or was
// used. Consuming the code is one conditional UPDATE ("… and not used yet"),
// which takes the invite row's lock: of two concurrent accepts of a
// single-use code exactly one updates the row — on PostgreSQL the other waits
// for it and then finds the row used — and the duplicate-binding check runs
// after that lock, so two accepts by one identity cannot both bind.
import type { HandlerContext } from '@connectrpc/connect';
import { bindingWithinIdentityScope } from '../../auth/identity-scope.js';
import { callerOf } from '../../auth/caller.js';
import { create } from '@bufbuild/protobuf';
import { emitRpcEvent } from '../../events/rpc-event.js';
import { SessionSchema, type RegistrationRequest, type Session } from '../../gen/berth/auth/v1/auth_pb.js';
import type { ServiceDeps } from '../../runtime/service-deps.js';
import { transact, type Tx } from '../../store/transact.js';
import { isForeignKeyViolation } from '../../store/constraint-error.js';
import {
  badIamRequest,
  IAM_DOMAIN,
  inviteCodeInvalid,
  inviteEmailMismatch,
  inviteExpired,
  inviteOutOfScope,
  inviteUsed,
  inviteVoid,
  roleBindingExists,
} from '../errors.js';
import type { GroupInvitesTable } from '../iam-tables.js';
import { loadHydrated } from '../role-bindings/binding-row.js';
import { existingBinding } from '../role-bindings/existing-binding.js';
import { GrantAuthority } from '../role-bindings/grant-authority.js';
import { writeBinding } from '../role-bindings/write-binding.js';
import { codeMatches, keyIdOf } from './invite-code.js';

/** The invite the code opens, or inviteCodeInvalid: one answer for malformed, forged and deleted codes. */
async function inviteOfCode(tx: Tx, code: string): Promise<GroupInvitesTable> {
  const keyId = keyIdOf(code);
  const row = keyId === undefined ? undefined : await tx.selectFrom('group_invites').selectAll().where('key_id', '=', keyId).executeTakeFirst();
  if (!row || !codeMatches(code, row.code_hash)) throw inviteCodeInvalid();
  return row;
}

/** The checks on the invite and the caller, before anything is written. */
async function checkAcceptable(tx: Tx, invite: GroupInvitesTable, identityUid: string, now: string): Promise<void> {
  if (invite.single_use !== 0 && invite.used_time !== null) throw inviteUsed();
  if (invite.expiration_time <= now) throw inviteExpired(invite.expiration_time);
  if (!bindingWithinIdentityScope(identityUid, invite.parent_uid)) throw inviteOutOfScope();
  if (invite.email !== '') {
    const identity = await tx.selectFrom('identities').select('email').where('uid', '=', identityUid).executeTakeFirst();
    if ((identity?.email ?? '').toLowerCase() !== invite.email) throw inviteEmailMismatch();
  }
  // The invite is the creator's promise: kept only while the creator exists and could still make the binding.
  if (!(await new GrantAuthority(tx).holds(invite.created_by, invite.role_uid, invite.parent_uid))) throw inviteVoid();
}

/** Marks the invite used; false when a concurrent accept consumed it or it was deleted meanwhile. */
async function consume(tx: Tx, invite: GroupInvitesTable, identityUid: string, now: string): Promise<boolean> {
  const r = await tx
    .updateTable('group_invites')
    .set({ used_time: now, used_by: identityUid, update_time: now })
    .where('uid', '=', invite.uid)
    .where((eb) => eb.or([eb('single_use', '=', 0), eb('used_time', 'is', null)]))
    .executeTakeFirst();
  return r.numUpdatedRows === 1n;
}

export async function acceptInvite(deps: ServiceDeps, req: RegistrationRequest, ctx: HandlerContext): Promise<Session> {
  const caller = callerOf(ctx, IAM_DOMAIN);
  if (req.code === '') throw badIamRequest([{ field: 'code', description: 'code is required' }]);
  try {
    return await transact(deps.store, async (tx) => {
      const now = new Date().toISOString();
      const invite = await inviteOfCode(tx, req.code);
      await checkAcceptable(tx, invite, caller.identityUid, now);
      if (!(await consume(tx, invite, caller.identityUid, now))) {
        const still = await tx.selectFrom('group_invites').select('uid').where('uid', '=', invite.uid).executeTakeFirst();
        throw still ? inviteUsed() : inviteCodeInvalid();
      }
      if (await existingBinding(tx, invite.parent_uid, caller.identityUid, invite.role_uid))
        throw roleBindingExists(invite.parent_uid, caller.identityUid, invite.role_uid);
      const binding = await writeBinding(tx, { parent: invite.parent_uid, identityUid: caller.identityUid, roleUid: invite.role_uid });
      // The registration event: who joined which group ({group, identity}, as the reference's body).
      const joined = create(SessionSchema, { identity: caller.identityUid, group: invite.parent_uid });
      await emitRpcEvent(tx, ctx, { group: invite.parent_uid, subject: caller.identityUid, schema: SessionSchema, message: joined });
      return { ...joined, roleBinding: await loadHydrated(tx, binding.uid) };
    });
  } catch (err) {
    // The invite's role or group was deleted while this accept ran (they take the invite with them).
    if (isForeignKeyViolation(err)) throw inviteCodeInvalid();
    throw err;
  }
}

// Invites as the API shows them: the stored row with its role read alongside
// (uid, name, description, capabilities). The code is never stored, so only
// the create response carries it.
//
// A void invite — its creator deleted, or no longer holding what it takes to
// bind the invite's role at its group (grant-authority.ts) — cannot be
// accepted. GroupInvite has no state field (nor has the reference's), so it
// shows as expired: its expirationTime is no later than the time of the
// answer. Voidness is read, not stored: were the creator given the authority
// back, the invite would show (and work) until its own expiration again.
import { create } from '@bufbuild/protobuf';
import { GroupInviteSchema, type GroupInvite } from '../../gen/berth/iam/v2/group_invites_pb.js';
import { isoToTimestamp, nowIso } from '../../core/clock.js';
import type { Executor } from '../../store/transact.js';
import type { GroupInvitesTable, RolesTable } from '../iam-tables.js';
import { inviteNotFound } from '../errors.js';
import { GrantAuthority } from '../role-bindings/grant-authority.js';
import { roleCapabilities } from '../roles/role-row.js';

type RoleColumns = Pick<RolesTable, 'uid' | 'name' | 'description' | 'capabilities'>;

export function inviteFromRow(row: GroupInvitesTable, role: RoleColumns | undefined, code = '', voidAt?: string): GroupInvite {
  const expiration = voidAt !== undefined && voidAt < row.expiration_time ? voidAt : row.expiration_time;
  return create(GroupInviteSchema, {
    uid: row.uid,
    roleUid: row.role_uid,
    email: row.email,
    expirationTime: isoToTimestamp(expiration),
    singleUse: row.single_use !== 0,
    code,
    keyId: row.key_id,
    createTime: isoToTimestamp(row.create_time),
    // The role is gone only in the instant before the invite goes with it.
    role: role && { uid: role.uid, name: role.name, description: role.description, capabilities: roleCapabilities(role) },
  });
}

/**
 * The invite as its event carries it: without the code and its key id (whoever
 * reads the event must not be able to accept the invite) and without the
 * invitee's email, as the reference redacts it.
 */
export function inviteEventBody(invite: GroupInvite): GroupInvite {
  return create(GroupInviteSchema, {
    uid: invite.uid,
    roleUid: invite.roleUid,
    role: invite.role,
    expirationTime: invite.expirationTime,
    singleUse: invite.singleUse,
    createTime: invite.createTime,
  });
}

/** The roles of these invites, by uid, in one read. */
async function rolesOf(db: Executor, rows: readonly GroupInvitesTable[]): Promise<Map<string, RoleColumns>> {
  const uids = [...new Set(rows.map((r) => r.role_uid))];
  if (uids.length === 0) return new Map();
  const roles = await db.selectFrom('roles').select(['uid', 'name', 'description', 'capabilities']).where('uid', 'in', uids).execute();
  return new Map(roles.map((r) => [r.uid, r]));
}

export async function invitesFromRows(db: Executor, rows: readonly GroupInvitesTable[]): Promise<GroupInvite[]> {
  const roles = await rolesOf(db, rows);
  const authority = new GrantAuthority(db);
  const now = nowIso();
  const valid = await Promise.all(rows.map((r) => authority.holds(r.created_by, r.role_uid, r.parent_uid)));
  return rows.map((r, i) => inviteFromRow(r, roles.get(r.role_uid), '', valid[i] ? undefined : now));
}

export async function loadInviteRow(db: Executor, uid: string): Promise<GroupInvitesTable> {
  const row = await db.selectFrom('group_invites').selectAll().where('uid', '=', uid).executeTakeFirst();
  if (!row) throw inviteNotFound(uid);
  return row;
}

export async function loadInvite(db: Executor, uid: string): Promise<GroupInvite> {
  const row = await loadInviteRow(db, uid);
  return (await invitesFromRows(db, [row]))[0];
}

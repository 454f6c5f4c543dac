// Invites as the API shows them: the stored row with its role read alongside
// (uid, name, description, capabilities). The code is never stored, so only
// the create response carries it.
import { create } from '@bufbuild/protobuf';
import { GroupInviteSchema, type GroupInvite } from '../../gen/berth/iam/v2/group_invites_pb.js';
import { isoToTimestamp } from '../../core/clock.js';
import type { Executor } from '../../store/transact.js';
import type { GroupInvitesTable, RolesTable } from '../iam-tables.js';
import { inviteNotFound } from '../errors.js';
import { roleCapabilities } from '../roles/role-row.js';

type RoleColumns = Pick<RolesTable, 'uid' | 'name' | 'description' | 'capabilities'>;

export function inviteFromRow(row: GroupInvitesTable, role: RoleColumns | undefined, code = ''): GroupInvite {
  return create(GroupInviteSchema, {
    uid: row.uid,
    roleUid: row.role_uid,
    email: row.email,
    expirationTime: isoToTimestamp(row.expiration_time),
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
  return rows.map((r) => inviteFromRow(r, roles.get(r.role_uid)));
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

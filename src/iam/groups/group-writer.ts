// The one function that inserts a group. CreateGroup (after its permission
// checks) and first start (the first organization) end here, so every stored
// group passed the same checks — name and description lengths, a parent that
// exists, an organization name no other organization has — and its
// group.created event commits with the row. Callers keep their own
// permission checks and what they add beside the group (an owner binding).
import type { HandlerContext } from '@connectrpc/connect';
import { GroupSchema } from '../../gen/berth/iam/v2/groups_pb.js';
import { emitRpcEvent } from '../../events/rpc-event.js';
import { nowIso } from '../../core/clock.js';
import { newChildUid, newRootUid } from '../../core/uidp.js';
import type { Tx } from '../../store/transact.js';
import type { GroupsTable } from '../iam-tables.js';
import { badIamRequest, groupNotFound, rootGroupNameTaken } from '../errors.js';
import { groupFromRow, groupViolations } from './group-row.js';

export interface NewGroup {
  /** The parent group's uid; '' for an organization (a root group). */
  parent: string;
  name: string;
  description: string;
  /** A uid chosen beforehand (first start records it first); default: a new one under the parent. */
  uid?: string;
}

/**
 * Who writes the group: the CreateGroup call, whose event it writes with its
 * caller as the actor, or first start, which writes none — the organization
 * exists before anyone who could subscribe to it or have made it.
 */
export type GroupAuthor = { ctx: HandlerContext } | 'first-start';

/** Validates and inserts the group inside `tx`, with its event; the row as stored. */
export async function writeGroup(tx: Tx, g: NewGroup, by: GroupAuthor): Promise<GroupsTable> {
  const bad = groupViolations(g.name, g.description);
  if (bad.length > 0) throw badIamRequest(bad);
  if (g.parent !== '') {
    const found = await tx.selectFrom('groups').select('uid').where('uid', '=', g.parent).executeTakeFirst();
    if (!found) throw groupNotFound(g.parent);
  } else {
    const taken = await tx.selectFrom('groups').select('uid').where('parent_uid', 'is', null).where('name', '=', g.name).executeTakeFirst();
    if (taken) throw rootGroupNameTaken(g.name);
  }
  const now = nowIso();
  const row: GroupsTable = {
    uid: g.uid ?? (g.parent === '' ? newRootUid() : newChildUid(g.parent)),
    parent_uid: g.parent === '' ? null : g.parent,
    name: g.name,
    description: g.description,
    verified: 0,
    create_time: now,
    update_time: now,
  };
  await tx.insertInto('groups').values(row).execute();
  if (by !== 'first-start') await emitRpcEvent(tx, by.ctx, { group: row.uid, subject: row.uid, schema: GroupSchema, message: groupFromRow(row) });
  return row;
}

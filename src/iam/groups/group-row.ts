import { create } from '@bufbuild/protobuf';
import { GroupSchema, type Group } from '../../gen/berth/iam/v2/groups_pb.js';
import type { FieldViolation } from '../../core/api-error.js';
import { isoToTimestamp } from '../../core/clock.js';
import type { GroupsTable } from '../iam-tables.js';
import type { Executor } from '../../store/transact.js';
import { groupNotFound } from '../errors.js';
import { compiledQuery, runCompiled } from '../../store/compiled-queries.js';

const GROUP_BY_UID = compiledQuery('group by uid');

export const MAX_NAME = 63;
export const MAX_DESCRIPTION = 1000;

export function groupFromRow(row: GroupsTable): Group {
  return create(GroupSchema, {
    uid: row.uid,
    name: row.name,
    description: row.description,
    verified: row.verified !== 0,
    createTime: isoToTimestamp(row.create_time),
    updateTime: isoToTimestamp(row.update_time),
  });
}

export async function loadGroupRow(db: Executor, uid: string): Promise<GroupsTable> {
  const [row] = await runCompiled<GroupsTable>(db, GROUP_BY_UID, [uid], ([u]) =>
    db
      .selectFrom('groups')
      .selectAll()
      .where('uid', '=', u as string),
  );
  if (!row) throw groupNotFound(uid);
  return row;
}

/** Violations of a group's writable fields, named as in the request (`group.*`). */
export function groupViolations(name: string, description: string): FieldViolation[] {
  const out: FieldViolation[] = [];
  if (name.length === 0) out.push({ field: 'group.name', description: 'name is required' });
  else if (name.length > MAX_NAME) out.push({ field: 'group.name', description: `name must be at most ${MAX_NAME} characters` });
  if (description.length > MAX_DESCRIPTION) {
    out.push({ field: 'group.description', description: `description must be at most ${MAX_DESCRIPTION} characters` });
  }
  return out;
}

import { create } from '@bufbuild/protobuf';
import type { Capability } from '../../gen/berth/capabilities/v1/capabilities_pb.js';
import { RoleSchema, type Role } from '../../gen/berth/iam/v2/roles_pb.js';
import { isoToTimestamp } from '../../core/clock.js';
import type { RolesTable } from '../iam-tables.js';
import type { Executor } from '../../store/transact.js';
import { roleNotFound } from '../errors.js';
import { compiledQuery, runCompiled } from '../../store/compiled-queries.js';

const ROLE_BY_UID = compiledQuery('role by uid');

export const MAX_ROLE_NAME = 63;
export const MAX_ROLE_DESCRIPTION = 255;

export function roleCapabilities(row: Pick<RolesTable, 'capabilities'>): Capability[] {
  return JSON.parse(row.capabilities) as Capability[];
}

export function roleFromRow(row: RolesTable): Role {
  return create(RoleSchema, {
    uid: row.uid,
    name: row.name,
    description: row.description,
    capabilities: roleCapabilities(row),
    createTime: isoToTimestamp(row.create_time),
    updateTime: isoToTimestamp(row.update_time),
  });
}

export async function loadRoleRow(db: Executor, uid: string): Promise<RolesTable> {
  const [row] = await runCompiled<RolesTable>(db, ROLE_BY_UID, [uid], ([u]) =>
    db
      .selectFrom('roles')
      .selectAll()
      .where('uid', '=', u as string),
  );
  if (!row) throw roleNotFound(uid);
  return row;
}

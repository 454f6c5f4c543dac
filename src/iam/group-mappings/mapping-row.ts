// An external group role mapping as stored and as returned. It lives under its
// identity provider (parent_uid); scope_uid is the group its role is bound on.
import { create } from '@bufbuild/protobuf';
import { isoToTimestamp } from '../../core/clock.js';
import { ExternalGroupRoleMappingSchema, type ExternalGroupRoleMapping } from '../../gen/berth/iam/v2/external_group_role_mappings_pb.js';
import type { Executor } from '../../store/transact.js';
import { externalGroupRoleMappingNotFound } from '../errors.js';
import type { ExternalGroupRoleMappingsTable } from '../iam-tables.js';

export function mappingFromRow(row: ExternalGroupRoleMappingsTable): ExternalGroupRoleMapping {
  return create(ExternalGroupRoleMappingSchema, {
    uid: row.uid,
    identityProviderUid: row.parent_uid,
    externalGroupId: row.external_group_id,
    roleUid: row.role_uid,
    scope: row.scope_uid,
    createTime: isoToTimestamp(row.create_time),
  });
}

export async function loadMappingRow(db: Executor, uid: string): Promise<ExternalGroupRoleMappingsTable> {
  const row = await db.selectFrom('external_group_role_mappings').selectAll().where('uid', '=', uid).executeTakeFirst();
  if (!row) throw externalGroupRoleMappingNotFound(uid);
  return row;
}

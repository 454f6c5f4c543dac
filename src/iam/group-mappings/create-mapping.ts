// The guard has checked identity_providers.create and role_bindings.create at
// the provider (`parent`). The rules needing only uids run first (the scope is
// the provider's group or below it, the role means something there), then the
// provider, the scope group and the role must exist, and the caller must hold
// every capability of the role on the scope: a mapping is a role binding made
// later, for whoever the provider says is in the group (no escalation).
import { create } from '@bufbuild/protobuf';
import type { HandlerContext } from '@connectrpc/connect';
import { callerOf } from '../../auth/caller.js';
import { emitRpcEvent } from '../../events/rpc-event.js';
import type { FieldViolation } from '../../core/api-error.js';
import { nowIso } from '../../core/clock.js';
import { isSelfOrBelow, isValidUid, newChildUid, parentOf } from '../../core/uidp.js';
import {
  type CreateExternalGroupRoleMappingRequest,
  type ExternalGroupRoleMapping,
  ExternalGroupRoleMappingSchema,
} from '../../gen/berth/iam/v2/external_group_role_mappings_pb.js';
import type { ServiceDeps } from '../../runtime/service-deps.js';
import { isUniqueViolation } from '../../store/constraint-error.js';
import { transact } from '../../store/transact.js';
import { resyncMembersOfGroupsNamed } from '../scim/scim-membership.js';
import { badIamRequest, externalGroupRoleMappingExists, groupNotFound, IAM_DOMAIN, identityProviderNotFound } from '../errors.js';
import { requireGrantableRole, roleUidViolation } from '../roles/grantable-role.js';
import { mappingFromRow } from './mapping-row.js';

export const MAX_EXTERNAL_GROUP = 256;
const CONTROL = /\p{Cc}/u;
const F = 'external_group_role_mapping';

function violations(m: ExternalGroupRoleMapping, providerGroup: string, scope: string): FieldViolation[] {
  const out: FieldViolation[] = [];
  const g = m.externalGroupId;
  if (g === '' || g.length > MAX_EXTERNAL_GROUP || CONTROL.test(g)) {
    out.push({
      field: `${F}.external_group_id`,
      description: `external_group_id is required: 1 to ${MAX_EXTERNAL_GROUP} characters, without control characters`,
    });
  }
  if (!isValidUid(scope)) out.push({ field: `${F}.scope`, description: `"${scope.slice(0, 80)}" is not a valid uid` });
  else if (!isSelfOrBelow(scope, providerGroup)) {
    out.push({ field: `${F}.scope`, description: "the scope must be the identity provider's group or a group below it" });
  } else {
    const role = roleUidViolation(m.roleUid, scope, `${F}.role_uid`);
    if (role) out.push(role);
  }
  return out;
}

export async function createExternalGroupRoleMapping(
  deps: ServiceDeps,
  req: CreateExternalGroupRoleMappingRequest,
  ctx: HandlerContext,
): Promise<ExternalGroupRoleMapping> {
  const caller = callerOf(ctx, IAM_DOMAIN);
  const m = req.externalGroupRoleMapping ?? create(ExternalGroupRoleMappingSchema);
  const providerGroup = parentOf(req.parent);
  const scope = m.scope === '' ? providerGroup : m.scope;
  const bad = violations(m, providerGroup, scope);
  if (bad.length > 0) throw badIamRequest(bad);
  const now = nowIso();
  const row = {
    uid: newChildUid(req.parent),
    parent_uid: req.parent,
    external_group_id: m.externalGroupId,
    role_uid: m.roleUid,
    scope_uid: scope,
    // Who vouches for the role: sign in applies the mapping only while this identity still could bind it.
    created_by: caller.identityUid,
    create_time: now,
    update_time: now,
  };
  const exists = () => externalGroupRoleMappingExists(req.parent, m.externalGroupId, m.roleUid, scope);
  try {
    await transact(deps.store, async (tx) => {
      const provider = await tx.selectFrom('identity_providers').select('uid').where('uid', '=', req.parent).executeTakeFirst();
      if (!provider) throw identityProviderNotFound(req.parent);
      const group = await tx.selectFrom('groups').select('uid').where('uid', '=', scope).executeTakeFirst();
      if (!group) throw groupNotFound(scope);
      await requireGrantableRole(tx, caller, m.roleUid, scope);
      const dup = await tx
        .selectFrom('external_group_role_mappings')
        .select('uid')
        .where('parent_uid', '=', req.parent)
        .where('external_group_id', '=', m.externalGroupId)
        .where('role_uid', '=', m.roleUid)
        .where('scope_uid', '=', scope)
        .executeTakeFirst();
      if (dup) throw exists();
      await tx.insertInto('external_group_role_mappings').values(row).execute();
      // Users the provider's SCIM client put in a group of that name get the role now, not at their next sign in.
      await resyncMembersOfGroupsNamed(tx, req.parent, m.externalGroupId);
      await emitRpcEvent(tx, ctx, {
        group: providerGroup,
        subject: row.uid,
        schema: ExternalGroupRoleMappingSchema,
        message: mappingFromRow(row),
        extensions: { identityprovider: req.parent },
      });
    });
  } catch (err) {
    if (isUniqueViolation(err)) throw exists(); // two creates raced past the check
    throw err;
  }
  return mappingFromRow(row);
}

// Deletes several mappings of one identity provider in one transaction. As the
// reference has it: names that no longer exist are skipped, and a name whose
// parent is not the request's provider is INVALID_ARGUMENT (nothing deleted).
// The guard has checked identity_providers.delete at that provider, which
// covers every mapping below it. One event for the batch, about the provider,
// listing the mappings deleted; none when every name was already gone.
import { create } from '@bufbuild/protobuf';
import type { HandlerContext } from '@connectrpc/connect';
import { emitRpcEvent } from '../../events/rpc-event.js';
import {
  BatchDeleteExternalGroupRoleMappingsResponseSchema,
  type BatchDeleteExternalGroupRoleMappingsRequest,
  type BatchDeleteExternalGroupRoleMappingsResponse,
} from '../../gen/berth/iam/v2/external_group_role_mappings_pb.js';
import type { FieldViolation } from '../../core/api-error.js';
import { isValidUid, parentOf } from '../../core/uidp.js';
import type { ServiceDeps } from '../../runtime/service-deps.js';
import { transact } from '../../store/transact.js';
import { badIamRequest } from '../errors.js';
import { keepOwners } from '../role-bindings/owner-bindings.js';
import { mappingFromRow } from './mapping-row.js';

export const MAX_BATCH_DELETE = 100;

export async function batchDeleteExternalGroupRoleMappings(
  deps: ServiceDeps,
  req: BatchDeleteExternalGroupRoleMappingsRequest,
  ctx: HandlerContext,
): Promise<BatchDeleteExternalGroupRoleMappingsResponse> {
  if (req.names.length === 0) throw badIamRequest([{ field: 'names', description: 'at least one name is required' }]);
  if (req.names.length > MAX_BATCH_DELETE) throw badIamRequest([{ field: 'names', description: `at most ${MAX_BATCH_DELETE} names per batch` }]);
  const bad: FieldViolation[] = [];
  req.names.forEach((name, i) => {
    if (!isValidUid(name)) bad.push({ field: `names[${i}]`, description: `"${name.slice(0, 80)}" is not a valid uid` });
    else if (parentOf(name) !== req.parent) bad.push({ field: `names[${i}]`, description: 'is not a mapping of the identity provider named by parent' });
  });
  if (bad.length > 0) throw badIamRequest(bad);
  const names = [...new Set(req.names)];
  return transact(deps.store, async (tx) => {
    const rows = await tx.selectFrom('external_group_role_mappings').selectAll().where('uid', 'in', names).orderBy('uid').execute();
    const res = create(BatchDeleteExternalGroupRoleMappingsResponseSchema, { parent: req.parent, externalGroupRoleMappings: rows.map(mappingFromRow) });
    if (rows.length === 0) return res;
    const uids = rows.map((r) => r.uid);
    await keepOwners(tx, { mappings: uids }, () => tx.deleteFrom('external_group_role_mappings').where('uid', 'in', uids).execute());
    await emitRpcEvent(tx, ctx, {
      group: parentOf(req.parent),
      subject: req.parent,
      schema: BatchDeleteExternalGroupRoleMappingsResponseSchema,
      message: res,
      extensions: { identityprovider: req.parent },
    });
    return res;
  });
}

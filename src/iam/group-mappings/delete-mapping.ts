import type { HandlerContext } from '@connectrpc/connect';
import { parentOf } from '../../core/uidp.js';
import { emitRpcEvent } from '../../events/rpc-event.js';
import {
  DeleteExternalGroupRoleMappingRequestSchema,
  type DeleteExternalGroupRoleMappingRequest,
} from '../../gen/berth/iam/v2/external_group_role_mappings_pb.js';
import type { ServiceDeps } from '../../runtime/service-deps.js';
import { transact } from '../../store/transact.js';
import { externalGroupRoleMappingNotFound } from '../errors.js';
import { keepOwners } from '../role-bindings/owner-bindings.js';

/** A hard delete: the role bindings the mapping made at sign in go with it (ON DELETE CASCADE), unless one is an organization's last owner binding. */
export async function deleteExternalGroupRoleMapping(
  deps: ServiceDeps,
  req: DeleteExternalGroupRoleMappingRequest,
  ctx: HandlerContext,
): Promise<Record<string, never>> {
  await transact(deps.store, async (tx) => {
    const gone = await keepOwners(tx, { mappings: [req.uid] }, () =>
      tx.deleteFrom('external_group_role_mappings').where('uid', '=', req.uid).executeTakeFirst(),
    );
    if (gone.numDeletedRows === 0n) throw externalGroupRoleMappingNotFound(req.uid);
    // A mapping lives under its identity provider, which lives in the group.
    const provider = parentOf(req.uid);
    await emitRpcEvent(tx, ctx, {
      group: parentOf(provider),
      subject: req.uid,
      schema: DeleteExternalGroupRoleMappingRequestSchema,
      message: req,
      extensions: { identityprovider: provider },
    });
  });
  return {};
}

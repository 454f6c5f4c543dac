import type { HandlerContext } from '@connectrpc/connect';
import { emitRpcEvent } from '../../events/rpc-event.js';
import { transact } from '../../store/transact.js';
import { DeleteIdentityRequestSchema, type DeleteIdentityRequest } from '../../gen/berth/iam/v2/identities_pb.js';
import { identityEventGroup } from './identity-event-group.js';
import type { ServiceDeps } from '../../runtime/service-deps.js';
import { identityNotFound } from '../errors.js';
import { keepOwners } from '../role-bindings/owner-bindings.js';

/** Deletes the identity; its role bindings go with it (ON DELETE CASCADE), unless one is an organization's last owner binding. */
export async function deleteIdentity(deps: ServiceDeps, req: DeleteIdentityRequest, ctx: HandlerContext): Promise<Record<string, never>> {
  await transact(deps.store, async (tx) => {
    const gone = await keepOwners(tx, { identity: req.uid }, () => tx.deleteFrom('identities').where('uid', '=', req.uid).executeTakeFirst());
    if (gone.numDeletedRows === 0n) throw identityNotFound(req.uid);
    await emitRpcEvent(tx, ctx, { group: identityEventGroup(req.uid), subject: req.uid, schema: DeleteIdentityRequestSchema, message: req });
  });
  return {};
}

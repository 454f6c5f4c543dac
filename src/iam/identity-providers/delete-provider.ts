import type { HandlerContext } from '@connectrpc/connect';
import { parentOf } from '../../core/uidp.js';
import { emitRpcEvent } from '../../events/rpc-event.js';
import { DeleteIdentityProviderRequestSchema, type DeleteIdentityProviderRequest } from '../../gen/berth/iam/v2/identity_providers_pb.js';
import type { ServiceDeps } from '../../runtime/service-deps.js';
import { transact } from '../../store/transact.js';
import { identityProviderNotFound } from '../errors.js';
import { keepOwners } from '../role-bindings/owner-bindings.js';

/** Its mappings go with it (ON DELETE CASCADE), and with them the role bindings they made at sign in — unless one is an organization's last owner binding. */
export async function deleteIdentityProvider(deps: ServiceDeps, req: DeleteIdentityProviderRequest, ctx: HandlerContext): Promise<Record<string, never>> {
  await transact(deps.store, async (tx) => {
    const gone = await keepOwners(tx, { provider: req.uid }, () => tx.deleteFrom('identity_providers').where('uid', '=', req.uid).executeTakeFirst());
    if (gone.numDeletedRows === 0n) throw identityProviderNotFound(req.uid);
    await emitRpcEvent(tx, ctx, { group: parentOf(req.uid), subject: req.uid, schema: DeleteIdentityProviderRequestSchema, message: req });
  });
  return {};
}

import type { DeleteIdentityRequest } from '../../gen/berth/iam/v2/identities_pb.js';
import type { ServiceDeps } from '../../store/service-deps.js';
import { identityNotFound } from '../errors.js';

/** Deletes the identity and every role binding that names it, all or nothing. */
export async function deleteIdentity(deps: ServiceDeps, req: DeleteIdentityRequest): Promise<Record<string, never>> {
  await deps.store.db.transaction().execute(async (trx) => {
    const gone = await trx.deleteFrom('identities').where('uid', '=', req.uid).executeTakeFirst();
    if (gone.numDeletedRows === 0n) throw identityNotFound(req.uid);
    await trx.deleteFrom('role_bindings').where('identity_uid', '=', req.uid).execute();
  });
  return {};
}

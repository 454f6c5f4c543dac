import { transact } from '../../store/transact.js';
import type { DeleteRepoRequest } from '../../gen/berth/registry/v2/repos_pb.js';
import type { ServiceDeps } from '../../runtime/service-deps.js';
import { repoNotFound } from '../errors.js';

/** Deletes the repo; its tags and tag history go with it (ON DELETE CASCADE). */
export async function deleteRepo(deps: ServiceDeps, req: DeleteRepoRequest): Promise<Record<string, never>> {
  await transact(deps.store, async (tx) => {
    const gone = await tx.deleteFrom('repos').where('uid', '=', req.uid).executeTakeFirst();
    if (gone.numDeletedRows === 0n) throw repoNotFound(req.uid);
  });
  return {};
}

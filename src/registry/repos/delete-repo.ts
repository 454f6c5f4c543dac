import type { DeleteRepoRequest } from '../../gen/berth/registry/v2/repos_pb.js';
import type { ServiceDeps } from '../../store/service-deps.js';
import { repoNotFound } from '../errors.js';

/** Deletes the repo, its tags and their history, all or nothing. */
export async function deleteRepo(deps: ServiceDeps, req: DeleteRepoRequest): Promise<Record<string, never>> {
  await deps.store.db.transaction().execute(async (trx) => {
    const gone = await trx.deleteFrom('repos').where('uid', '=', req.uid).executeTakeFirst();
    if (gone.numDeletedRows === 0n) throw repoNotFound(req.uid);
    await trx.deleteFrom('tags').where('parent_uid', '=', req.uid).execute();
    await trx.deleteFrom('tag_history').where('repo_uid', '=', req.uid).execute();
  });
  return {};
}

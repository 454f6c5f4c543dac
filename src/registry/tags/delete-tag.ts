import type { DeleteTagRequest } from '../../gen/berth/registry/v2/tags_pb.js';
import type { ServiceDeps } from '../../runtime/service-deps.js';
import { transact } from '../../store/transact.js';
import { tagNotFound } from '../errors.js';

/**
 * Removes the tag but keeps its history rows: the digests it pointed to stay
 * pinnable and auditable. No history row is written for the delete itself,
 * since a record needs a digest and an empty one would read as a bad pin.
 * History goes only with the repo (see delete-repo.ts).
 */
export async function deleteTag(deps: ServiceDeps, req: DeleteTagRequest): Promise<Record<string, never>> {
  const gone = await transact(deps.store, (tx) => tx.deleteFrom('tags').where('uid', '=', req.uid).executeTakeFirst());
  if (gone.numDeletedRows === 0n) throw tagNotFound(req.uid);
  return {};
}

import type { GetRepoRequest, Repo } from '../../gen/berth/registry/v2/repos_pb.js';
import type { ServiceDeps } from '../../runtime/service-deps.js';
import { loadRepoRow, repoFromRow } from './repo-row.js';

export async function getRepo(deps: ServiceDeps, req: GetRepoRequest): Promise<Repo> {
  return repoFromRow(await loadRepoRow(deps.store.db, req.uid));
}

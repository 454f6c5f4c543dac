import { transact } from '../../store/transact.js';
import type { HandlerContext } from '@connectrpc/connect';
import type { CreateRepoRequest, Repo } from '../../gen/berth/registry/v2/repos_pb.js';
import type { ServiceDeps } from '../../runtime/service-deps.js';
import { repoFromRow } from './repo-row.js';
import { writeRepo } from './repo-writer.js';

export async function createRepo(deps: ServiceDeps, req: CreateRepoRequest, ctx: HandlerContext): Promise<Repo> {
  const repo = { parent: req.parent, name: req.repo?.name ?? '', description: req.repo?.description ?? '' };
  const row = await transact(deps.store, (tx) => writeRepo(tx, repo, { ctx }));
  return repoFromRow(row);
}

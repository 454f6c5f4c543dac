// v1 UpdateRepo (PUT): the whole repo replaced — name, description and
// readme as sent, a field left out emptied — through the v2 update's writer.
import type { HandlerContext } from '@connectrpc/connect';
import type { Repo } from '../../gen/berth/registry/v1/registry_pb.js';
import type { ServiceDeps } from '../../runtime/service-deps.js';
import { transact } from '../../store/transact.js';
import { loadRepoRow } from '../repos/repo-row.js';
import { writeRepoChange } from '../repos/update-repo.js';
import { v1RepoFromRow } from './repo-v1.js';

export async function updateRepoV1(deps: ServiceDeps, req: Repo, ctx: HandlerContext): Promise<Repo> {
  return transact(deps.store, async (tx) => {
    const row = await loadRepoRow(tx, req.id);
    const next = await writeRepoChange(tx, ctx, row, { name: req.name, description: req.description, readme: req.readme });
    return v1RepoFromRow(next, req.readme);
  });
}

// v1 CreateRepo: the v2 writer (rules, event) with the readme. v1's
// prevent_existing false (the default) turns a name collision into an update
// of that repo — description and readme replaced, the repo.updated event, as
// the v1 PUT would — for a caller who may also update it there; true keeps
// the collision's ALREADY_EXISTS.
import { Code, ConnectError, type HandlerContext } from '@connectrpc/connect';
import { Capability } from '../../gen/berth/capabilities/v1/capabilities_pb.js';
import type { CreateRepoRequest, Repo } from '../../gen/berth/registry/v1/registry_pb.js';
import { ReposService } from '../../gen/berth/registry/v2/repos_pb.js';
import { callerOf } from '../../auth/caller.js';
import type { ServiceDeps } from '../../runtime/service-deps.js';
import { transact } from '../../store/transact.js';
import { REGISTRY_DOMAIN, repoNameTaken } from '../errors.js';
import { REPO_COLUMNS } from '../repos/repo-row.js';
import { writeRepo, type NewRepo } from '../repos/repo-writer.js';
import { writeRepoChange } from '../repos/update-repo.js';
import { v1RepoFromRow } from './repo-v1.js';

export async function createRepoV1(deps: ServiceDeps, req: CreateRepoRequest, ctx: HandlerContext): Promise<Repo> {
  const repo: NewRepo = { parent: req.parentId, name: req.repo?.name ?? '', description: req.repo?.description ?? '', readme: req.repo?.readme ?? '' };
  try {
    const row = await transact(deps.store, (tx) => writeRepo(tx, repo, { ctx }));
    return v1RepoFromRow(row, repo.readme);
  } catch (err) {
    if (req.preventExisting || ConnectError.from(err).code !== Code.AlreadyExists) throw err;
  }
  // A failed insert ends its transaction (PostgreSQL), so the update is a transaction of its own.
  return transact(deps.store, async (tx) => {
    const row = await tx.selectFrom('repos').select(REPO_COLUMNS).where('parent_uid', '=', repo.parent).where('name', '=', repo.name).executeTakeFirst();
    if (!row) throw repoNameTaken(repo.parent, repo.name); // renamed or deleted meanwhile: the collision stands
    await callerOf(ctx, REGISTRY_DOMAIN).require(REGISTRY_DOMAIN, [Capability.CAP_REPO_UPDATE], row.uid);
    const change = { name: repo.name, description: repo.description, readme: repo.readme };
    return v1RepoFromRow(await writeRepoChange(tx, ctx, row, change, ReposService.method.updateRepo), repo.readme);
  });
}

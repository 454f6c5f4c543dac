import type { ServiceImpl } from '@connectrpc/connect';
import type { ReposService } from '../../gen/berth/registry/v2/repos_pb.js';
import type { ServiceDeps } from '../../runtime/service-deps.js';
import { createRepo } from './create-repo.js';
import { deleteRepo } from './delete-repo.js';
import { getRepo } from './get-repo.js';
import { listRepos } from './list-repos.js';
import { getRepoReadme, updateRepoReadme } from './repo-readme.js';
import { updateRepo } from './update-repo.js';

export function reposService(deps: ServiceDeps): ServiceImpl<typeof ReposService> {
  return {
    getRepo: (req) => getRepo(deps, req),
    listRepos: (req, ctx) => listRepos(deps, req, ctx),
    createRepo: (req, ctx) => createRepo(deps, req, ctx),
    updateRepo: (req, ctx) => updateRepo(deps, req, ctx),
    deleteRepo: (req, ctx) => deleteRepo(deps, req, ctx),
    getRepoReadme: (req) => getRepoReadme(deps, req),
    updateRepoReadme: (req, ctx) => updateRepoReadme(deps, req, ctx),
  };
}

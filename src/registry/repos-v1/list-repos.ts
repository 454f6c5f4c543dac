// v1 ListRepos: the v2 list's pages (scopes, name and uidp filters, uid
// order) in one answer. Filtering by `id` is v1's Get: the one repo comes
// with its readme, which lists leave out (up to 1 MiB each).
import { create } from '@bufbuild/protobuf';
import type { HandlerContext } from '@connectrpc/connect';
import type { RepoFilter, RepoList } from '../../gen/berth/registry/v1/registry_pb.js';
import { ListReposRequestSchema } from '../../gen/berth/registry/v2/repos_pb.js';
import type { ServiceDeps } from '../../runtime/service-deps.js';
import { listRepos } from '../repos/list-repos.js';
import { allItems, narrowToId } from '../../list/v1-list.js';
import { REGISTRY_DOMAIN } from '../errors.js';
import { v1RepoFromV2 } from './repo-v1.js';

export const MAX_V1_REPOS = 1000;
const REPOS = { domain: REGISTRY_DOMAIN, what: 'repos', v2Path: '/registry/v2/repos', max: MAX_V1_REPOS };

export async function listReposV1(deps: ServiceDeps, req: RepoFilter, ctx: HandlerContext): Promise<RepoList> {
  const uidp = narrowToId(REGISTRY_DOMAIN, req.uidp, 'id', req.id);
  if (uidp === null) return { $typeName: 'berth.registry.v1.RepoList', items: [] };
  const repos = await allItems(REPOS, async (pageSize, pageToken) => {
    const page = await listRepos(deps, create(ListReposRequestSchema, { uidp, name: req.name, pageSize, pageToken }), ctx);
    return [page.repos, page.nextPageToken];
  });
  const readmes = new Map<string, string>();
  if (req.id !== '' && repos.length === 1) {
    const row = await deps.store.db.selectFrom('repos').select(['uid', 'readme']).where('uid', '=', req.id).executeTakeFirst();
    if (row) readmes.set(row.uid, row.readme);
  }
  return { $typeName: 'berth.registry.v1.RepoList', items: repos.map((r) => v1RepoFromV2(r, readmes.get(r.uid))) };
}

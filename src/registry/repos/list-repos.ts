import type { HandlerContext } from '@connectrpc/connect';
import { Capability } from '../../gen/berth/capabilities/v1/capabilities_pb.js';
import type { ListReposRequest, ListReposResponse } from '../../gen/berth/registry/v2/repos_pb.js';
import { callerOf } from '../../auth/caller.js';
import { runList, type ListSpec } from '../../list/run-list.js';
import { equal, type Condition } from '../../list/conditions.js';
import type { ServiceDeps } from '../../runtime/service-deps.js';
import { REGISTRY_DOMAIN } from '../errors.js';
import { REPO_COLUMNS, repoFromRow, type RepoRow } from './repo-row.js';

const SPEC: ListSpec = {
  table: 'repos',
  domain: REGISTRY_DOMAIN,
  columns: { uid: 'uid', name: 'name', created_at: 'create_time', updated_at: 'update_time' },
  defaultOrder: { field: 'uid', desc: false },
  // The readme (up to 1 MiB each) is not part of a listed repo.
  select: REPO_COLUMNS,
};

export async function listRepos(deps: ServiceDeps, req: ListReposRequest, ctx: HandlerContext): Promise<ListReposResponse> {
  const caller = callerOf(ctx, REGISTRY_DOMAIN);
  const visible = await caller.scopes(Capability.CAP_REPO_LIST);
  const conditions: Condition[] = [];
  if (req.name !== undefined && req.name !== '') conditions.push(equal('name', req.name));
  const page = await runList<RepoRow>(deps, SPEC, req, { conditions, key: { name: req.name ?? '' } }, visible, caller.tableVersions);
  return {
    $typeName: 'berth.registry.v2.ListReposResponse',
    repos: page.rows.map(repoFromRow),
    nextPageToken: page.nextPageToken,
    totalCount: page.totalCount,
    skipped: page.skipped,
  };
}

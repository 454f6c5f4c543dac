import type { HandlerContext } from '@connectrpc/connect';
import { Capability } from '../../gen/berth/capabilities/v1/capabilities_pb.js';
import type { ListReposRequest, ListReposResponse } from '../../gen/berth/registry/v2/repos_pb.js';
import { callerOf } from '../../auth/caller.js';
import { runList, type ListSpec } from '../../store/run-list.js';
import type { Condition } from '../../store/list-page.js';
import type { ReposTable } from '../../store/schema.js';
import type { ServiceDeps } from '../../store/service-deps.js';
import { REGISTRY_DOMAIN } from '../errors.js';
import { repoFromRow } from './repo-row.js';

const SPEC: ListSpec = {
  table: 'repos',
  domain: REGISTRY_DOMAIN,
  columns: { uid: 'uid', name: 'name', created_at: 'create_time', updated_at: 'update_time' },
  defaultOrder: { field: 'uid', desc: false },
  // The readme (up to 1 MiB each) is not part of a listed repo.
  select: ['uid', 'parent_uid', 'name', 'description', 'create_time', 'update_time'],
};

export async function listRepos(deps: ServiceDeps, req: ListReposRequest, ctx: HandlerContext): Promise<ListReposResponse> {
  const visible = await callerOf(ctx, REGISTRY_DOMAIN).scopes(Capability.CAP_REPO_LIST);
  const conditions: Condition[] = [];
  if (req.name !== undefined && req.name !== '') conditions.push((eb) => eb('name', '=', req.name));
  const page = await runList<Omit<ReposTable, 'readme'>>(deps, SPEC, req, { conditions, key: { name: req.name ?? '' } }, visible);
  return {
    $typeName: 'berth.registry.v2.ListReposResponse',
    repos: page.rows.map(repoFromRow),
    nextPageToken: page.nextPageToken,
    totalCount: page.totalCount,
    skipped: page.skipped,
  };
}

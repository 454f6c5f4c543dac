import type { HandlerContext } from '@connectrpc/connect';
import { Capability } from '../../gen/berth/capabilities/v1/capabilities_pb.js';
import type { ListTagsRequest, ListTagsResponse } from '../../gen/berth/registry/v2/tags_pb.js';
import { callerOf } from '../../auth/caller.js';
import { timestampToIso } from '../../core/clock.js';
import { runList, type ListSpec } from '../../list/run-list.js';
import { equal, atLeast, type Condition } from '../../list/conditions.js';
import type { TagsTable } from '../registry-tables.js';
import type { ServiceDeps } from '../../runtime/service-deps.js';
import { REGISTRY_DOMAIN } from '../errors.js';
import { notDate, notEpoch, notReferrer } from './tag-filters.js';
import { tagFromRow } from './tag-row.js';

const SPEC: ListSpec = {
  table: 'tags',
  domain: REGISTRY_DOMAIN,
  columns: { uid: 'uid', name: 'name', updated_at: 'update_time' },
  defaultOrder: { field: 'uid', desc: false },
};

export async function listTags(deps: ServiceDeps, req: ListTagsRequest, ctx: HandlerContext): Promise<ListTagsResponse> {
  const caller = callerOf(ctx, REGISTRY_DOMAIN);
  const visible = await caller.scopes(Capability.CAP_TAG_LIST);
  const conditions: Condition[] = [];
  if (req.name !== '') conditions.push(equal('name', req.name));
  if (req.digest !== '') conditions.push(equal('digest', req.digest));
  const since = req.updatedSince ? timestampToIso(req.updatedSince) : '';
  if (since !== '') conditions.push(atLeast('update_time', since));
  if (!req.includeReferrers) conditions.push(notReferrer);
  if (!req.includeDates) conditions.push(notDate);
  if (!req.includeEpochs) conditions.push(notEpoch);
  const key = { n: req.name, d: req.digest, s: since, r: req.includeReferrers, dt: req.includeDates, e: req.includeEpochs };
  const page = await runList<TagsTable>(deps, SPEC, req, { conditions, key }, visible, caller.tableVersions);
  return {
    $typeName: 'berth.registry.v2.ListTagsResponse',
    tags: page.rows.map(tagFromRow),
    nextPageToken: page.nextPageToken,
    totalCount: page.totalCount,
    skipped: page.skipped,
  };
}

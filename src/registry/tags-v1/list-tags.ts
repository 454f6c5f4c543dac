// v1 ListTags: the v2 list's pages in one answer. v1 excludes where v2
// includes: referrer, date and epoch tags are listed unless excluded.
import { create } from '@bufbuild/protobuf';
import type { HandlerContext } from '@connectrpc/connect';
import type { TagFilter, TagList } from '../../gen/berth/registry/v1/registry_pb.js';
import { ListTagsRequestSchema } from '../../gen/berth/registry/v2/tags_pb.js';
import type { ServiceDeps } from '../../runtime/service-deps.js';
import { listTags } from '../tags/list-tags.js';
import { allItems, narrowToId } from '../../list/v1-list.js';
import { REGISTRY_DOMAIN } from '../errors.js';
import { v1TagFromV2 } from './tag-v1.js';

/** A repo has more tags than repos a group has (a date tag a day, for years). */
export const MAX_V1_TAGS = 10_000;
const TAGS = { domain: REGISTRY_DOMAIN, what: 'tags', v2Path: '/registry/v2/tags', max: MAX_V1_TAGS };

export async function listTagsV1(deps: ServiceDeps, req: TagFilter, ctx: HandlerContext): Promise<TagList> {
  const uidp = narrowToId(REGISTRY_DOMAIN, req.uidp, 'id', req.id);
  if (uidp === null) return { $typeName: 'berth.registry.v1.TagList', items: [] };
  const filter = {
    uidp,
    name: req.name,
    digest: req.digest,
    updatedSince: req.updatedSince,
    includeReferrers: !req.excludeReferrers,
    includeDates: !req.excludeDates,
    includeEpochs: !req.excludeEpochs,
  };
  const tags = await allItems(TAGS, async (pageSize, pageToken) => {
    const page = await listTags(deps, create(ListTagsRequestSchema, { ...filter, pageSize, pageToken }), ctx);
    return [page.tags, page.nextPageToken];
  });
  return { $typeName: 'berth.registry.v1.TagList', items: tags.map(v1TagFromV2) };
}

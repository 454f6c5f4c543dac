import type { GetTagRequest, Tag } from '../../gen/berth/registry/v2/tags_pb.js';
import type { ServiceDeps } from '../../runtime/service-deps.js';
import { loadTagRow, tagFromRow } from './tag-row.js';

export async function getTag(deps: ServiceDeps, req: GetTagRequest): Promise<Tag> {
  return tagFromRow(await loadTagRow(deps, req.uid));
}

import type { ServiceImpl } from '@connectrpc/connect';
import type { TagsService } from '../../gen/berth/registry/v2/tags_pb.js';
import type { ServiceDeps } from '../../runtime/service-deps.js';
import { createTag } from './create-tag.js';
import { deleteTag } from './delete-tag.js';
import { getTag } from './get-tag.js';
import { listTags } from './list-tags.js';

export function tagsService(deps: ServiceDeps): ServiceImpl<typeof TagsService> {
  return {
    getTag: (req) => getTag(deps, req),
    listTags: (req, ctx) => listTags(deps, req, ctx),
    createTag: (req, ctx) => createTag(deps, req, ctx),
    deleteTag: (req, ctx) => deleteTag(deps, req, ctx),
  };
}

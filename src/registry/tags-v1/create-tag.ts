import { create } from '@bufbuild/protobuf';
import type { HandlerContext } from '@connectrpc/connect';
import type { CreateTagRequest, Tag } from '../../gen/berth/registry/v1/registry_pb.js';
import { CreateTagRequestSchema } from '../../gen/berth/registry/v2/tags_pb.js';
import type { ServiceDeps } from '../../runtime/service-deps.js';
import { createTag } from '../tags/create-tag.js';
import { v1TagFromV2 } from './tag-v1.js';

/** v1 CreateTag: the v2 create-or-move (rules, history, tag.created event); an id in the body is ignored. */
export async function createTagV1(deps: ServiceDeps, req: CreateTagRequest, ctx: HandlerContext): Promise<Tag> {
  const tag = { name: req.tag?.name ?? '', digest: req.tag?.digest ?? '', deprecated: req.tag?.deprecated ?? false };
  return v1TagFromV2(await createTag(deps, create(CreateTagRequestSchema, { parent: req.repoId, tag }), ctx));
}

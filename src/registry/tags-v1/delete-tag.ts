import { create } from '@bufbuild/protobuf';
import type { HandlerContext } from '@connectrpc/connect';
import type { DeleteTagRequest } from '../../gen/berth/registry/v1/registry_pb.js';
import { DeleteTagRequestSchema } from '../../gen/berth/registry/v2/tags_pb.js';
import type { ServiceDeps } from '../../runtime/service-deps.js';
import { deleteTag } from '../tags/delete-tag.js';

/** v1 DeleteTag: the v2 delete (the removal recorded in the history; the event's body is v2's request). */
export async function deleteTagV1(deps: ServiceDeps, req: DeleteTagRequest, ctx: HandlerContext): Promise<Record<string, never>> {
  return deleteTag(deps, create(DeleteTagRequestSchema, { uid: req.id }), ctx);
}

import type { HandlerContext } from '@connectrpc/connect';
import type { DeleteRepoRequest } from '../../gen/berth/registry/v1/registry_pb.js';
import { DeleteRepoRequestSchema } from '../../gen/berth/registry/v2/repos_pb.js';
import { create } from '@bufbuild/protobuf';
import type { ServiceDeps } from '../../runtime/service-deps.js';
import { deleteRepo } from '../repos/delete-repo.js';

/** v1 DeleteRepo: the v2 delete (tags and history go with the repo; the event's body is v2's request). */
export async function deleteRepoV1(deps: ServiceDeps, req: DeleteRepoRequest, ctx: HandlerContext): Promise<Record<string, never>> {
  return deleteRepo(deps, create(DeleteRepoRequestSchema, { uid: req.id }), ctx);
}

import { nowIso } from '../../core/clock.js';
import type { HandlerContext } from '@connectrpc/connect';
import { parentOf } from '../../core/uidp.js';
import { emitRpcEvent } from '../../events/rpc-event.js';
import { DeleteTagRequestSchema, type DeleteTagRequest } from '../../gen/berth/registry/v2/tags_pb.js';
import type { ServiceDeps } from '../../runtime/service-deps.js';
import { transact } from '../../store/transact.js';
import { tagNotFound } from '../errors.js';
import { removeTag } from './tag-writer.js';

/**
 * Removes the tag through the tag writer, which records the removal in the
 * tag history; earlier records stay, so the digests it pointed to remain
 * pinnable and auditable. History goes only with the repo.
 */
export async function deleteTag(deps: ServiceDeps, req: DeleteTagRequest, ctx: HandlerContext): Promise<Record<string, never>> {
  await transact(deps.store, async (tx) => {
    const tag = await tx.selectFrom('tags').select(['parent_uid', 'name']).where('uid', '=', req.uid).executeTakeFirst();
    if (!tag || !(await removeTag(tx, tag.parent_uid, tag.name, nowIso()))) throw tagNotFound(req.uid);
    await emitRpcEvent(tx, ctx, { group: parentOf(tag.parent_uid), subject: req.uid, schema: DeleteTagRequestSchema, message: req });
  });
  return {};
}

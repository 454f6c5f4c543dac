import type { FieldViolation } from '../../core/api-error.js';
import { nowIso } from '../../core/clock.js';
import type { HandlerContext } from '@connectrpc/connect';
import { parentOf } from '../../core/uidp.js';
import { emitRpcEvent } from '../../events/rpc-event.js';
import { TagSchema, type CreateTagRequest, type Tag } from '../../gen/berth/registry/v2/tags_pb.js';
import type { ServiceDeps } from '../../runtime/service-deps.js';
import { transact } from '../../store/transact.js';
import { statManifest } from '../content/get-manifest.js';
import { lockRepoContent } from '../content/repo-content-lock.js';
import { badRegistryRequest, repoNotFound, tagDigestNotInRepo } from '../errors.js';
import { digestViolation, tagNameViolation } from '../names.js';
import { tagFromRow } from './tag-row.js';
import { setTag } from './tag-writer.js';

/**
 * Create-or-move by name within the repo, to a manifest the repo holds (a tag
 * naming content that was never pushed could not be pulled). The tag writer
 * records the move in the tag history in the same transaction, and the event
 * (tag.created, moved or not) goes to the repo's group.
 */
export async function createTag(deps: ServiceDeps, req: CreateTagRequest, ctx: HandlerContext): Promise<Tag> {
  const name = req.tag?.name ?? '';
  const digest = req.tag?.digest ?? '';
  const bad = [tagNameViolation(name, 'tag.name'), digestViolation(digest, 'tag.digest')].filter((v): v is FieldViolation => v !== undefined);
  if (bad.length > 0) throw badRegistryRequest(bad);
  return transact(deps.store, async (tx) => {
    // The repo's content lock first: gc cannot delete the manifest between the check and the tag.
    if (!(await lockRepoContent(tx, req.parent, 'share'))) throw repoNotFound(req.parent);
    if (!(await statManifest(tx, req.parent, digest))) throw tagDigestNotInRepo(req.parent, digest);
    const tag = tagFromRow(await setTag(tx, req.parent, name, digest, nowIso(), { deprecated: req.tag?.deprecated ?? false }));
    await emitRpcEvent(tx, ctx, { group: parentOf(req.parent), subject: tag.uid, schema: TagSchema, message: tag });
    return tag;
  });
}

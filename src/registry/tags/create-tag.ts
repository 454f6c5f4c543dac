import { transact } from '../../store/transact.js';
import type { CreateTagRequest, Tag } from '../../gen/berth/registry/v2/tags_pb.js';
import type { FieldViolation } from '../../core/api-error.js';
import { nowIso } from '../../core/clock.js';
import { newChildUid } from '../../core/uidp.js';
import type { TagsTable } from '../registry-tables.js';
import type { ServiceDeps } from '../../runtime/service-deps.js';
import { badRegistryRequest, repoNotFound } from '../errors.js';
import { digestViolation, tagNameViolation } from '../names.js';
import { tagFromRow } from './tag-row.js';

/**
 * Create-or-move by name within the repo. Every time the tag starts pointing at
 * a digest (new tag or a different digest) a history row is written in the
 * same transaction, so the history never misses or invents a move.
 */
export async function createTag(deps: ServiceDeps, req: CreateTagRequest): Promise<Tag> {
  const name = req.tag?.name ?? '';
  const digest = req.tag?.digest ?? '';
  const deprecated = req.tag?.deprecated ? 1 : 0;
  const bad = [tagNameViolation(name, 'tag.name'), digestViolation(digest, 'tag.digest')].filter((v): v is FieldViolation => v !== undefined);
  if (bad.length > 0) throw badRegistryRequest(bad);
  return transact(deps.store, async (tx) => {
    const repo = await tx.selectFrom('repos').select('uid').where('uid', '=', req.parent).executeTakeFirst();
    if (!repo) throw repoNotFound(req.parent);
    const now = nowIso();
    const existing = await tx.selectFrom('tags').selectAll().where('parent_uid', '=', req.parent).where('name', '=', name).executeTakeFirst();
    let row: TagsTable;
    if (existing) {
      row = { ...existing, digest, deprecated, update_time: now };
      await tx.updateTable('tags').set({ digest, deprecated, update_time: now }).where('uid', '=', existing.uid).execute();
    } else {
      row = { uid: newChildUid(req.parent), parent_uid: req.parent, name, digest, deprecated, create_time: now, update_time: now };
      await tx.insertInto('tags').values(row).execute();
    }
    if (!existing || existing.digest !== digest) {
      await tx.insertInto('tag_history').values({ repo_uid: req.parent, tag_name: name, digest, update_time: now }).execute();
    }
    return tagFromRow(row);
  });
}

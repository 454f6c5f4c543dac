// The one writer of tags: the API (create/delete tag), manifest pushes and
// manifest deletes all move tags through setTag and removeTag, so the tag
// history sees every change of the digest a tag points to, written in the
// same transaction as the change.
//
// History rows: a tag pointing at a new digest (created, or moved) writes
// {digest}; setting the digest it already has writes nothing; removing the
// tag writes a row with the empty digest, TAG_REMOVED. The removal is kept so
// the record is complete ("from T the tag pointed at nothing") and so a tag
// re-created at its old digest is a new entry (the digest changed from none).
// historyOf leaves removals out unless asked: the history endpoint promises
// digests a consumer can pin, and an empty one is not.
import { nowIso } from '../../core/clock.js';
import { newChildUid } from '../../core/uidp.js';
import type { Tx } from '../../store/transact.js';
import type { TagsTable } from '../registry-tables.js';

/** The digest of a history row that records a removal. */
export const TAG_REMOVED = '';

export interface SetTagOptions {
  /** Set the tag's deprecated flag; absent keeps it (a new tag starts not deprecated). */
  deprecated?: boolean;
}

async function load(tx: Tx, repoUid: string, name: string): Promise<TagsTable | undefined> {
  return tx.selectFrom('tags').selectAll().where('parent_uid', '=', repoUid).where('name', '=', name).executeTakeFirst();
}

async function record(tx: Tx, repoUid: string, name: string, digest: string, now: string): Promise<void> {
  await tx.insertInto('tag_history').values({ repo_uid: repoUid, tag_name: name, digest, update_time: now }).execute();
}

/**
 * Points the repo's tag `name` at `digest`, creating the tag if needed, and
 * records the move when the digest changes. The caller checked the name and
 * that the repo holds the manifest. Returns the tag as stored.
 */
export async function setTag(tx: Tx, repoUid: string, name: string, digest: string, now = nowIso(), opts: SetTagOptions = {}): Promise<TagsTable> {
  const flag = opts.deprecated === undefined ? {} : { deprecated: opts.deprecated ? 1 : 0 };
  // Two tries: a concurrent transaction may create the tag between our update and insert.
  for (let attempt = 0; attempt < 2; attempt++) {
    // "digest <> new" in the UPDATE itself, not a read before it: PostgreSQL
    // re-checks it on the locked row, so two concurrent moves both record.
    const moved = await tx
      .updateTable('tags')
      .set({ digest, update_time: now, ...flag })
      .where('parent_uid', '=', repoUid)
      .where('name', '=', name)
      .where('digest', '<>', digest)
      .executeTakeFirst();
    if (moved.numUpdatedRows > 0n) {
      await record(tx, repoUid, name, digest, now);
      return (await load(tx, repoUid, name)) as TagsTable;
    }
    const same = await tx
      .updateTable('tags')
      .set({ update_time: now, ...flag })
      .where('parent_uid', '=', repoUid)
      .where('name', '=', name)
      .executeTakeFirst();
    if (same.numUpdatedRows > 0n) return (await load(tx, repoUid, name)) as TagsTable;
    const row: TagsTable = {
      uid: newChildUid(repoUid),
      parent_uid: repoUid,
      name,
      digest,
      deprecated: opts.deprecated ? 1 : 0,
      create_time: now,
      update_time: now,
    };
    const created = await tx
      .insertInto('tags')
      .values(row)
      .onConflict((oc) => oc.columns(['parent_uid', 'name']).doNothing())
      .executeTakeFirst();
    if (Number(created.numInsertedOrUpdatedRows ?? 0n) > 0) {
      await record(tx, repoUid, name, digest, now);
      return row;
    }
  }
  throw new Error(`tag ${name} kept changing while being set`);
}

/** Deletes the repo's tag `name` and records the removal; the removed tag, or undefined when there was none. */
export async function removeTag(tx: Tx, repoUid: string, name: string, now = nowIso()): Promise<TagsTable | undefined> {
  const row = await load(tx, repoUid, name);
  if (!row) return undefined;
  const gone = await tx.deleteFrom('tags').where('uid', '=', row.uid).executeTakeFirst();
  if (gone.numDeletedRows === 0n) return undefined; // removed concurrently; that removal recorded itself
  await record(tx, repoUid, name, TAG_REMOVED, now);
  return row;
}

// Which repos may read a blob. A blob row is global (content-addressed, one
// size); a repo reads it only through a repo_blobs link, made by a push into
// the repo or a cross-repo mount. Unlinking leaves the blob row for gc, which
// deletes a blob only once no repo links it (the key is RESTRICT).
//
// Linking and gc meet on the blob's row: linkBlob locks it (an upsert), and
// gc deletes a blob's bytes only while it holds that row locked and has seen
// no link (src/registry/gc/collect-blob.ts). linkCommittedBlob then checks
// the bytes are there after its lock: what it finds stays until its link is
// visible, and a link is never made to bytes gc has just deleted.
import { nowIso } from '../../core/clock.js';
import type { Executor, Tx } from '../../store/transact.js';
import { BlobCollectedError, type BlobStore } from '../blobs/blob-store.js';
import { listersOf } from './content-users.js';
import { assertDigest, type Digest } from './digest.js';
import { lockRepoContent } from './repo-content-lock.js';

/**
 * Records the committed blob (once) and lets the repo read it. Idempotent;
 * true when the link is new. Either way the link's push_time is now, so gc's
 * grace counts from this push. A digest already recorded with another size is
 * refused: the blob store verified the bytes, so that is a bug, not a client error.
 */
export async function linkBlob(tx: Tx, repoUid: string, digest: string, size: number, now = nowIso()): Promise<boolean> {
  assertDigest(digest);
  if (!Number.isSafeInteger(size) || size < 0) throw new RangeError(`blob size must be a non-negative integer: ${size}`);
  await lockRepoContent(tx, repoUid, 'share');
  // DO UPDATE (of nothing) rather than DO NOTHING: it locks the row, so gc cannot delete it between here and the commit.
  await tx
    .insertInto('blobs')
    .values({ digest, size, create_time: now })
    .onConflict((oc) => oc.column('digest').doUpdateSet({ digest: (eb) => eb.ref('excluded.digest') }))
    .execute();
  const stored = await tx.selectFrom('blobs').select('size').where('digest', '=', digest).executeTakeFirstOrThrow();
  if (Number(stored.size) !== size) throw new Error(`blob ${digest} is recorded with size ${stored.size}, not ${size}`);
  const linked = await tx
    .insertInto('repo_blobs')
    .values({ repo_uid: repoUid, digest, create_time: now, push_time: now })
    .onConflict((oc) => oc.columns(['repo_uid', 'digest']).doNothing())
    .executeTakeFirst();
  if (Number(linked.numInsertedOrUpdatedRows ?? 0n) > 0) return true;
  await tx.updateTable('repo_blobs').set({ push_time: now }).where('repo_uid', '=', repoUid).where('digest', '=', digest).execute();
  return false;
}

/**
 * linkBlob for a blob whose bytes are in `blobs` (an upload just committed,
 * or a mount): after the link has locked the blob's row, the bytes must
 * still be there, else BlobCollectedError (throw it out of the transaction,
 * so nothing is linked).
 */
export async function linkCommittedBlob(tx: Tx, blobs: Pick<BlobStore, 'stat'>, repoUid: string, digest: Digest, size: number): Promise<boolean> {
  const created = await linkBlob(tx, repoUid, digest.text, size);
  if ((await blobs.stat(digest)) === undefined) throw new BlobCollectedError(digest.text);
  return created;
}

/** The size of a blob the repo may read, or undefined when it is not linked to the repo. */
export async function repoBlobSize(ex: Executor, repoUid: string, digest: string): Promise<number | undefined> {
  const row = await ex
    .selectFrom('repo_blobs')
    .innerJoin('blobs', 'blobs.digest', 'repo_blobs.digest')
    .select('blobs.size')
    .where('repo_blobs.repo_uid', '=', repoUid)
    .where('repo_blobs.digest', '=', digest)
    .executeTakeFirst();
  return row === undefined ? undefined : Number(row.size);
}

/** Whether the repo may read the blob. */
export async function repoHasBlob(ex: Executor, repoUid: string, digest: string): Promise<boolean> {
  return (await repoBlobSize(ex, repoUid, digest)) !== undefined;
}

export interface UnlinkResult {
  /** False when the repo did not link the blob, or a manifest still uses it (nothing changed). */
  unlinked: boolean;
  /** Set when the link was kept because stored manifests of the repo use the blob: some of their digests. */
  usedBy?: string[];
}

/**
 * Takes the blob away from the repo (the bytes stay for gc), unless a stored
 * manifest of the repo uses it as config or layer: that image would no longer
 * pull, so the manifest goes first. Under the repo's content lock held
 * exclusive, so no manifest push using the blob is between its check and its commit.
 */
export async function unlinkBlob(tx: Tx, repoUid: string, digest: string): Promise<UnlinkResult> {
  await lockRepoContent(tx, repoUid, 'exclusive');
  if (!(await repoHasBlob(tx, repoUid, digest))) return { unlinked: false };
  const usedBy = await listersOf(tx, repoUid, digest, 'blob');
  if (usedBy.length > 0) return { unlinked: false, usedBy };
  const gone = await tx.deleteFrom('repo_blobs').where('repo_uid', '=', repoUid).where('digest', '=', digest).executeTakeFirst();
  return { unlinked: gone.numDeletedRows > 0n };
}

// Which repos may read a blob. A blob row is global (content-addressed, one
// size); a repo reads it only through a repo_blobs link, made by a push into
// the repo or a cross-repo mount. Unlinking leaves the blob row for gc, which
// deletes a blob only once no repo links it (the key is RESTRICT).
import { nowIso } from '../../core/clock.js';
import type { Executor, Tx } from '../../store/transact.js';
import { assertDigest } from './digest.js';

/**
 * Records the committed blob (once) and lets the repo read it. Idempotent;
 * true when the link is new. A digest already recorded with another size is
 * refused: the blob store verified the bytes, so that is a bug, not a client error.
 */
export async function linkBlob(tx: Tx, repoUid: string, digest: string, size: number, now = nowIso()): Promise<boolean> {
  assertDigest(digest);
  if (!Number.isSafeInteger(size) || size < 0) throw new RangeError(`blob size must be a non-negative integer: ${size}`);
  await tx
    .insertInto('blobs')
    .values({ digest, size, create_time: now })
    .onConflict((oc) => oc.column('digest').doNothing())
    .execute();
  const stored = await tx.selectFrom('blobs').select('size').where('digest', '=', digest).executeTakeFirstOrThrow();
  if (Number(stored.size) !== size) throw new Error(`blob ${digest} is recorded with size ${stored.size}, not ${size}`);
  const linked = await tx
    .insertInto('repo_blobs')
    .values({ repo_uid: repoUid, digest, create_time: now })
    .onConflict((oc) => oc.columns(['repo_uid', 'digest']).doNothing())
    .executeTakeFirst();
  return Number(linked.numInsertedOrUpdatedRows ?? 0n) > 0;
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

/** Takes the blob away from the repo (the bytes stay for gc); false when it was not linked. */
export async function unlinkBlob(tx: Tx, repoUid: string, digest: string): Promise<boolean> {
  const gone = await tx.deleteFrom('repo_blobs').where('repo_uid', '=', repoUid).where('digest', '=', digest).executeTakeFirst();
  return gone.numDeletedRows > 0n;
}

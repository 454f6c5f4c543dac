// Deleting one blob — its row and its bytes — safely against pushes in
// flight on a live server. The whole step is one transaction:
//   1. lock the blob's row (FOR UPDATE; for bytes with no row, a placeholder
//      row inserted here, so there is something to hold);
//   2. re-check: no repo links the blob, and its bytes were last committed
//      before the grace (BlobInfo.modified: committing identical content
//      again renews it, so a re-upload in flight keeps them);
//   3. delete the row, then the bytes; commit.
// linkBlob locks the same row before it links (an upsert), and the upload
// and mount routes stat the bytes after that lock (linkCommittedBlob). So a
// link made while this runs waits for the commit and then finds the bytes
// deleted (its push is refused: "upload again") or the ones its own commit
// renamed into place after the deletion (kept); a link made before this
// started is seen in step 2. A push is never told a blob is stored that gc
// deleted. On SQLite the transaction is alone among writers, the same thing.
// If the commit fails after the bytes went, the row stays with no link and
// no bytes: nothing can read it (reads go through links, a link needs a
// fresh commit or a mount, which stat the bytes), and the next run drops it.
import type { BlobStore } from '../blobs/blob-store.js';
import type { Digest } from '../content/digest.js';
import { capabilitiesOf } from '../../store/db-capabilities.js';
import type { Store } from '../../store/store.js';
import { transact } from '../../store/transact.js';

export type CollectOutcome = { deleted: true; bytes: number } | { deleted: false; reason: 'linked' | 'fresh' };

class Kept extends Error {
  constructor(readonly reason: 'linked' | 'fresh') {
    super(reason);
  }
}

/** Deletes the blob (row and bytes) unless a repo links it or its bytes are within the grace. */
export async function collectBlob(store: Store, blobs: BlobStore, digest: Digest, cutoff: Date): Promise<CollectOutcome> {
  try {
    return await transact(store, async (tx) => {
      await tx
        .insertInto('blobs')
        .values({ digest: digest.text, size: 0, create_time: '' })
        .onConflict((oc) => oc.column('digest').doNothing())
        .execute();
      await capabilitiesOf(tx)
        .lockRows(tx.selectFrom('blobs').select('digest').where('digest', '=', digest.text), 'exclusive')
        .executeTakeFirst();
      const link = await tx.selectFrom('repo_blobs').select('repo_uid').where('digest', '=', digest.text).limit(1).executeTakeFirst();
      if (link !== undefined) throw new Kept('linked');
      const info = await blobs.stat(digest);
      if (info !== undefined && info.modified.getTime() >= cutoff.getTime()) throw new Kept('fresh');
      await tx.deleteFrom('blobs').where('digest', '=', digest.text).execute();
      const removed = info !== undefined && (await blobs.delete(digest));
      return { deleted: true as const, bytes: removed ? info.size : 0 };
    });
  } catch (err) {
    if (err instanceof Kept) return { deleted: false, reason: err.reason };
    throw err;
  }
}

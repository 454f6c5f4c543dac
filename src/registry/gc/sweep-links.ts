// Sweep of blob links: takes from a repo the links mark-repo.ts found dead,
// in one statement per batch under the repo's content lock (exclusive). The
// statement itself re-checks both conditions at that moment — pushed before
// the grace, and no manifest of the repo lists the blob — so a link a push
// refreshed or a manifest pushed since the mark still protects is kept. With
// the lock held, no putManifest of this repo is between its check that a
// blob is linked and its commit.
import { sql } from 'kysely';
import { lockRepoContent } from '../content/repo-content-lock.js';
import type { Store } from '../../store/store.js';
import { transact } from '../../store/transact.js';

/** Links removed by one statement (and the size of its IN list). */
export const LINK_BATCH = 200;

/** Removes what of `digests`' links to the repo is still dead; the number removed. */
export async function sweepLinkBatch(store: Store, repoUid: string, digests: readonly string[], cutoffIso: string): Promise<number> {
  if (digests.length === 0) return 0;
  return transact(store, async (tx) => {
    if (!(await lockRepoContent(tx, repoUid, 'exclusive'))) return 0;
    const gone = await tx
      .deleteFrom('repo_blobs')
      .where('repo_uid', '=', repoUid)
      .where('digest', 'in', [...digests])
      .where('push_time', '<', cutoffIso)
      .where(({ not, exists, selectFrom }) =>
        not(
          exists(
            selectFrom('manifest_refs')
              .select(sql.lit(1).as('one'))
              .where('manifest_refs.repo_uid', '=', repoUid)
              .where('manifest_refs.kind', '=', 'blob')
              .whereRef('manifest_refs.child_digest', '=', 'repo_blobs.digest'),
          ),
        ),
      )
      .executeTakeFirst();
    return Number(gone.numDeletedRows);
  });
}

// The lock on a repo's content graph (its manifests, what they list, its
// tags and its blob links), so gc can run while the server serves.
//
// Every writer that reads the graph and then adds to it — putManifest (are
// the blobs linked? are the children there?), createTag (is the manifest
// there?), linkBlob — takes the lock 'share' as its transaction's first
// statement. gc takes it 'exclusive' around each batch it deletes, and judges
// what is unreferenced inside that transaction; so do deleteManifest and
// unlinkBlob, which refuse what a stored manifest still lists. So a writer's
// checks and its writes are never split by a deletion: either the deletion
// commits first and the writer's checks see what it removed (a push is
// refused, never stored half-referenced), or the writer commits first and
// the deletion's checks see what it added. Writers do not wait for one another.
//
// On PostgreSQL this is a row lock on the repos row (FOR KEY SHARE against
// FOR UPDATE); on SQLite a write transaction is alone anyway (see lockRows).
import { capabilitiesOf, type RowLock } from '../../store/db-capabilities.js';
import type { Tx } from '../../store/transact.js';

/** Takes the repo's content lock in `mode` until `tx` ends; false when the repo does not exist. */
export async function lockRepoContent(tx: Tx, repoUid: string, mode: RowLock): Promise<boolean> {
  const query = tx.selectFrom('repos').select('uid').where('uid', '=', repoUid);
  return (await capabilitiesOf(tx).lockRows(query, mode).executeTakeFirst()) !== undefined;
}

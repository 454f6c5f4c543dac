// Deletes a manifest from a repo. Every tag pointing at it is removed through
// the tag writer, so each removal lands in the tag history in the same
// transaction. What the manifest listed goes with it (manifest_refs cascade);
// the blobs stay linked for gc to judge. A manifest that a stored index of
// the repo lists is kept (listedBy names the indexes): deleting it would
// break every pull of the index, so the index goes first. Manifests naming it
// as subject are left as they are: the spec allows a missing subject.
//
// The check and the delete run under the repo's content lock held exclusive
// (repo-content-lock.ts): a push of an index listing the manifest takes it
// 'share' before it checks that its children are there, so the two cannot
// both pass their checks and commit.
import { nowIso } from '../../core/clock.js';
import type { Tx } from '../../store/transact.js';
import { removeTag } from '../tags/tag-writer.js';
import { listersOf } from './content-users.js';
import { lockRepoContent } from './repo-content-lock.js';

export interface DeleteManifestResult {
  /** False when the repo did not hold the manifest, or an index still lists it (nothing changed). */
  deleted: boolean;
  /** Names of the tags removed with it. */
  untagged: string[];
  /** Set when the manifest was kept because stored indexes of the repo list it: some of their digests. */
  listedBy?: string[];
}

export async function deleteManifest(tx: Tx, repoUid: string, digest: string, now = nowIso()): Promise<DeleteManifestResult> {
  await lockRepoContent(tx, repoUid, 'exclusive');
  const held = await tx.selectFrom('manifests').select('digest').where('repo_uid', '=', repoUid).where('digest', '=', digest).executeTakeFirst();
  if (!held) return { deleted: false, untagged: [] };
  const listedBy = await listersOf(tx, repoUid, digest, 'manifest');
  if (listedBy.length > 0) return { deleted: false, untagged: [], listedBy };
  const tags = await tx.selectFrom('tags').select('name').where('parent_uid', '=', repoUid).where('digest', '=', digest).orderBy('name').execute();
  const untagged: string[] = [];
  for (const t of tags) if (await removeTag(tx, repoUid, t.name, now)) untagged.push(t.name);
  const gone = await tx.deleteFrom('manifests').where('repo_uid', '=', repoUid).where('digest', '=', digest).executeTakeFirst();
  return { deleted: gone.numDeletedRows > 0n, untagged };
}

// Deletes a manifest from a repo. Every tag pointing at it is removed through
// the tag writer, so each removal lands in the tag history in the same
// transaction. What the manifest listed goes with it (manifest_refs cascade);
// the blobs stay linked for gc to judge. Indexes listing it and manifests
// naming it as subject are left as they are, as distribution leaves them.
import { nowIso } from '../../core/clock.js';
import type { Tx } from '../../store/transact.js';
import { removeTag } from '../tags/tag-writer.js';

export interface DeleteManifestResult {
  /** False when the repo did not hold the manifest (nothing changed). */
  deleted: boolean;
  /** Names of the tags removed with it. */
  untagged: string[];
}

export async function deleteManifest(tx: Tx, repoUid: string, digest: string, now = nowIso()): Promise<DeleteManifestResult> {
  const held = await tx.selectFrom('manifests').select('digest').where('repo_uid', '=', repoUid).where('digest', '=', digest).executeTakeFirst();
  if (!held) return { deleted: false, untagged: [] };
  const tags = await tx.selectFrom('tags').select('name').where('parent_uid', '=', repoUid).where('digest', '=', digest).orderBy('name').execute();
  const untagged: string[] = [];
  for (const t of tags) if (await removeTag(tx, repoUid, t.name, now)) untagged.push(t.name);
  const gone = await tx.deleteFrom('manifests').where('repo_uid', '=', repoUid).where('digest', '=', digest).executeTakeFirst();
  return { deleted: gone.numDeletedRows > 0n, untagged };
}

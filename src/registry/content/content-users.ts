// Which stored manifests of a repo still list a blob (as config or layer) or
// a manifest (as an index entry): what keeps a delete from breaking pulls of
// the image that refers to it. One indexed read (manifest_refs_child, on
// repo_uid and child_digest). A subject is not a listing: a referrer may
// outlive the manifest it describes.
import type { Executor } from '../../store/transact.js';

/** At most this many listers are named (enough to say what to delete first). */
export const MAX_LISTERS = 20;

/** Digests of the repo's manifests that list `digest` as a `kind`, in digest order; [] when none does. */
export async function listersOf(ex: Executor, repoUid: string, digest: string, kind: 'blob' | 'manifest'): Promise<string[]> {
  const rows = await ex
    .selectFrom('manifest_refs')
    .select('manifest_digest')
    .distinct()
    .where('repo_uid', '=', repoUid)
    .where('child_digest', '=', digest)
    .where('kind', '=', kind)
    .orderBy('manifest_digest')
    .limit(MAX_LISTERS)
    .execute();
  return rows.map((r) => r.manifest_digest);
}

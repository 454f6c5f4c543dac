// A manifest reference as the distribution API takes it, `<tag>` or
// `<digest>`, resolved to the digest of a manifest the repo holds. A tag set
// through the API before Berth kept manifests may point at a digest the repo
// does not hold; it resolves to nothing, as an unknown tag does.
import type { Executor } from '../../store/transact.js';
import { parseDigest } from './digest.js';

/** The manifest digest `reference` names in the repo, or undefined. */
export async function resolveReference(ex: Executor, repoUid: string, reference: string): Promise<string | undefined> {
  if (parseDigest(reference)) {
    const row = await ex.selectFrom('manifests').select('digest').where('repo_uid', '=', repoUid).where('digest', '=', reference).executeTakeFirst();
    return row?.digest;
  }
  const row = await ex
    .selectFrom('tags')
    .innerJoin('manifests', (j) => j.onRef('manifests.repo_uid', '=', 'tags.parent_uid').onRef('manifests.digest', '=', 'tags.digest'))
    .select('manifests.digest')
    .where('tags.parent_uid', '=', repoUid)
    .where('tags.name', '=', reference)
    .executeTakeFirst();
  return row?.digest;
}

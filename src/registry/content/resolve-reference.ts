// A manifest reference as the distribution API takes it, `<tag>` or
// `<digest>`, resolved to the digest of a manifest the repo holds. A tag set
// through the API before Berth kept manifests may point at a digest the repo
// does not hold; it resolves to nothing, as an unknown tag does.
import { compiledQuery, runCompiled } from '../../store/compiled-queries.js';
import type { Executor } from '../../store/transact.js';
import { parseDigest } from './digest.js';

const MANIFEST_BY_DIGEST = compiledQuery('manifest by digest');
const MANIFEST_BY_TAG = compiledQuery('manifest by tag');

/** The manifest digest `reference` names in the repo, or undefined. */
export async function resolveReference(ex: Executor, repoUid: string, reference: string): Promise<string | undefined> {
  // Compiled once (store/compiled-queries.ts): every manifest read resolves its reference.
  if (parseDigest(reference)) {
    const [row] = await runCompiled<{ digest: string }>(ex, MANIFEST_BY_DIGEST, [repoUid, reference], ([r, d]) =>
      ex
        .selectFrom('manifests')
        .select('digest')
        .where('repo_uid', '=', r as string)
        .where('digest', '=', d as string),
    );
    return row?.digest;
  }
  const [row] = await runCompiled<{ digest: string }>(ex, MANIFEST_BY_TAG, [repoUid, reference], ([r, t]) =>
    ex
      .selectFrom('tags')
      .innerJoin('manifests', (j) => j.onRef('manifests.repo_uid', '=', 'tags.parent_uid').onRef('manifests.digest', '=', 'tags.digest'))
      .select('manifests.digest')
      .where('tags.parent_uid', '=', r as string)
      .where('tags.name', '=', t as string),
  );
  return row?.digest;
}

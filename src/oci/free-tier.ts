// What a free-tier token (anonymous pulls of the public organization) reaches
// in a repo: every manifest its tags point to now or pointed to at any time
// in their history — so a consumer can pin an image by a digest the tag
// history lists — and what those manifests list (index children, nested
// indexes, config and layer blobs). Nothing else: not other tags, not content
// only another tag or no tag reaches, not referrers.
//
// Decided per request, for the one digest asked for, by walking UP from it:
// the manifests of the repo that list it, those that list them, and so on
// (manifest_refs_child), then asking whether a free-tier tag ever pointed at
// any of them (tag_history_digest). The history holds what a tag points to
// now as well: tag-writer.ts records every move in the move's transaction.
// One statement, each step an index probe; nothing walks the tags' whole
// content or history, and a tag moved away keeps what it pointed to reachable.
import { sql } from 'kysely';
import { compiledQuery, runCompiled } from '../store/compiled-queries.js';
import type { Executor } from '../store/transact.js';

/** Listing steps followed up from a digest: blob → image → index → nested indexes. Deeper is refused. */
const MAX_DEPTH = 4;

const FREE_TIER_REACH = compiledQuery('free-tier reach');

/** Whether `digest` (a manifest, or a blob linked to the repo) is reachable from what `tags` point or pointed to. */
export async function freeTierReaches(ex: Executor, repoUid: string, tags: readonly string[], digest: string, kind: 'manifest' | 'blob'): Promise<boolean> {
  if (tags.length === 0) return false;
  const rows = await runCompiled<{ digest: string }>(ex, { handle: FREE_TIER_REACH, shape: kind }, [repoUid, digest, ...tags], ([repo, d, ...names]) => {
    const r = repo as string;
    const free = names as string[];
    return ex
      .withRecursive('up(digest, depth)', (qc) => {
        // The start is the stored row itself: an unknown digest reaches nothing (and its column has the key's type, as the recursion's).
        const start =
          kind === 'manifest'
            ? qc
                .selectFrom('manifests')
                .select(['digest', sql<number>`0`.as('depth')])
                .where('repo_uid', '=', r)
                .where('digest', '=', d as string)
            : qc
                .selectFrom('repo_blobs')
                .select(['digest', sql<number>`0`.as('depth')])
                .where('repo_uid', '=', r)
                .where('digest', '=', d as string);
        // up CROSS JOIN m: SQLite takes the join order as written, and the
        // recursion's one row must drive the probe of manifest_refs_child.
        return start.union(
          qc
            .selectFrom('up')
            .crossJoin('manifest_refs as m')
            .select(['m.manifest_digest as digest', sql<number>`up.depth + 1`.as('depth')])
            .where('m.repo_uid', '=', r)
            .whereRef('m.child_digest', '=', 'up.digest')
            .where('up.depth', '<', MAX_DEPTH),
        );
      })
      .selectFrom('up')
      .select('up.digest')
      .where((eb) =>
        eb.exists(
          eb
            .selectFrom('tag_history as h')
            .select(sql.lit(1).as('one'))
            .where('h.repo_uid', '=', r)
            .whereRef('h.digest', '=', 'up.digest')
            .where('h.tag_name', 'in', free),
        ),
      )
      .limit(1);
  });
  return rows.length > 0;
}

// What a free-tier token (anonymous pulls of the public organization) reaches
// in a repo: the manifests its tags point to, what those list (index children,
// recursively), and their config and layer blobs. Nothing else — not other
// tags, not content reached only by digest, not referrers.
import type { Executor } from '../store/transact.js';

/** Manifests and blobs reachable from the tags; bounded so a crafted graph cannot run long. */
export interface Reach {
  manifests: Set<string>;
  blobs: Set<string>;
}

const MAX_DEPTH = 4;
const MAX_ITEMS = 20_000;

export async function reachFromTags(ex: Executor, repoUid: string, tags: readonly string[]): Promise<Reach> {
  const reach: Reach = { manifests: new Set(), blobs: new Set() };
  if (tags.length === 0) return reach;
  const tagged = await ex
    .selectFrom('tags')
    .select('digest')
    .where('parent_uid', '=', repoUid)
    .where('name', 'in', [...tags])
    .execute();
  let frontier = tagged.map((t) => t.digest).filter((d) => d !== '');
  for (let depth = 0; depth < MAX_DEPTH && frontier.length > 0; depth++) {
    for (const d of frontier) reach.manifests.add(d);
    const refs = await ex
      .selectFrom('manifest_refs')
      .select(['child_digest', 'kind'])
      .where('repo_uid', '=', repoUid)
      .where('manifest_digest', 'in', frontier)
      .limit(MAX_ITEMS)
      .execute();
    const next: string[] = [];
    for (const r of refs) {
      if (r.kind === 'blob') reach.blobs.add(r.child_digest);
      else if (!reach.manifests.has(r.child_digest)) next.push(r.child_digest);
    }
    frontier = next;
  }
  return reach;
}

// Sweep of manifests (deleteUntagged only): deletes a batch of the dead
// manifests mark-repo.ts found, in one transaction under the repo's content
// lock (exclusive), after judging each again there: a manifest is kept when
// it is tagged now, was pushed within the grace, is listed by a manifest not
// being deleted in this batch, or names as subject a manifest that exists
// and is not being deleted — and so is whatever a kept one lists or is the
// subject of. No writer can change the repo's graph while the lock is held,
// so what is deleted is unreferenced at the commit. Deletion goes through
// deleteManifest, the one path that keeps the tag rules (these have no tags).
import { deleteManifest } from '../content/delete-manifest.js';
import { lockRepoContent } from '../content/repo-content-lock.js';
import type { Store } from '../../store/store.js';
import { transact, type Tx } from '../../store/transact.js';

/** Manifests judged in one transaction (and the size of its IN lists). */
export const MANIFEST_BATCH = 100;

function addEdge(edges: Map<string, string[]>, from: string, to: string): void {
  edges.set(from, [...(edges.get(from) ?? []), to]);
}

/** The members of `batch` that are still unreferenced if the whole batch goes, in batch order. */
async function stillDead(tx: Tx, repoUid: string, batch: readonly string[], cutoffIso: string): Promise<string[]> {
  const rows = await tx
    .selectFrom('manifests')
    .select(['digest', 'subject_digest', 'push_time'])
    .where('repo_uid', '=', repoUid)
    .where('digest', 'in', [...batch])
    .execute();
  const present = new Set(rows.map((r) => r.digest));
  if (present.size === 0) return [];
  const kept = new Set<string>();
  const keepsAlive = new Map<string, string[]>(); // a batch member → the batch members it keeps when it is kept
  for (const r of rows) if (r.push_time >= cutoffIso) kept.add(r.digest);

  const tagged = await tx
    .selectFrom('tags')
    .select('digest')
    .where('parent_uid', '=', repoUid)
    .where('digest', 'in', [...present])
    .execute();
  for (const t of tagged) kept.add(t.digest);

  const parents = await tx
    .selectFrom('manifest_refs')
    .select(['manifest_digest', 'child_digest'])
    .where('repo_uid', '=', repoUid)
    .where('kind', '=', 'manifest')
    .where('child_digest', 'in', [...present])
    .execute();
  for (const p of parents) {
    if (present.has(p.manifest_digest)) addEdge(keepsAlive, p.manifest_digest, p.child_digest);
    else kept.add(p.child_digest);
  }

  const outside = [...new Set(rows.map((r) => r.subject_digest).filter((s): s is string => s !== null && !present.has(s)))];
  const existing =
    outside.length === 0
      ? new Set<string>()
      : new Set(
          (await tx.selectFrom('manifests').select('digest').where('repo_uid', '=', repoUid).where('digest', 'in', outside).execute()).map((r) => r.digest),
        );
  for (const r of rows) {
    if (r.subject_digest === null) continue;
    if (present.has(r.subject_digest)) addEdge(keepsAlive, r.subject_digest, r.digest);
    else if (existing.has(r.subject_digest)) kept.add(r.digest);
  }

  const queue = [...kept];
  while (queue.length > 0) {
    for (const d of keepsAlive.get(queue.pop() as string) ?? []) {
      if (!kept.has(d)) {
        kept.add(d);
        queue.push(d);
      }
    }
  }
  return batch.filter((d) => present.has(d) && !kept.has(d));
}

/** Deletes what of `batch` is still unreferenced; the number deleted. */
export async function sweepManifestBatch(store: Store, repoUid: string, batch: readonly string[], cutoffIso: string): Promise<number> {
  if (batch.length === 0) return 0;
  return transact(store, async (tx) => {
    if (!(await lockRepoContent(tx, repoUid, 'exclusive'))) return 0;
    let deleted = 0;
    for (const digest of await stillDead(tx, repoUid, batch, cutoffIso)) if ((await deleteManifest(tx, repoUid, digest)).deleted) deleted++;
    return deleted;
  });
}

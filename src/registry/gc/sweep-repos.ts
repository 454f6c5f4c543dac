// The per-repo phase: for each repo, mark (mark-repo.ts), then delete the dead
// manifests batch by batch (sweep-manifests.ts) and then the dead blob links
// (sweep-links.ts), each batch re-checked under the repo's content lock. A
// dry run only counts the plan, and remembers which links it would remove
// for the blob phase.
import { markRepo } from './mark-repo.js';
import type { GcRun } from './gc-run.js';
import { LINK_BATCH, sweepLinkBatch } from './sweep-links.js';
import { MANIFEST_BATCH, sweepManifestBatch } from './sweep-manifests.js';

const REPO_PAGE = 500;

function batches<T>(items: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

async function sweepRepo(run: GcRun, repoUid: string): Promise<void> {
  const { store, report, cutoffs } = run;
  const plan = await markRepo(store.db, repoUid, cutoffs.contentIso, run.deleteUntagged);
  if (run.dryRun) {
    report.manifestsDeleted += plan.manifests.length;
    report.linksRemoved += plan.links.length;
    for (const d of plan.links) run.plannedUnlinks.set(d, (run.plannedUnlinks.get(d) ?? 0) + 1);
    return;
  }
  for (const batch of batches(plan.manifests, MANIFEST_BATCH)) {
    if (run.stopped()) return;
    report.manifestsDeleted += await sweepManifestBatch(store, repoUid, batch, cutoffs.contentIso);
  }
  for (const batch of batches(plan.links, LINK_BATCH)) {
    if (run.stopped()) return;
    report.linksRemoved += await sweepLinkBatch(store, repoUid, batch, cutoffs.contentIso);
  }
}

/** Runs the per-repo phase over every repo, in uid order. */
export async function sweepRepos(run: GcRun): Promise<void> {
  const db = run.store.db;
  const total = Number(
    (
      await db
        .selectFrom('repos')
        .select((eb) => eb.fn.countAll().as('n'))
        .executeTakeFirstOrThrow()
    ).n,
  );
  run.progress('repos', 0, total);
  for (let after = ''; ; ) {
    const page = await db.selectFrom('repos').select('uid').where('uid', '>', after).orderBy('uid').limit(REPO_PAGE).execute();
    for (const { uid } of page) {
      if (run.stopped()) return;
      await sweepRepo(run, uid);
      run.report.reposScanned++;
      run.progress('repos', run.report.reposScanned, Math.max(total, run.report.reposScanned));
    }
    if (page.length < REPO_PAGE) return;
    after = page[page.length - 1].uid;
  }
}

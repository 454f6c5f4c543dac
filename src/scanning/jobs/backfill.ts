// The backfill: every stored image manifest with no scan job yet gets the
// jobs a push would have given it (triggeredBy of each kind), so upgrading a
// registry that already holds images inventories them. It runs when the scan
// worker starts, in batches of BATCH manifests, each batch one transaction;
// it is idempotent (enqueueing an existing job changes nothing), so a restart
// mid-way simply goes over the rest again.
import type { CreatedManifest } from '../../registry/content/manifest-observer.js';
import { DOCKER_MANIFEST, OCI_MANIFEST } from '../../registry/content/media-types.js';
import type { Store } from '../../store/store.js';
import { transact } from '../../store/transact.js';
import { enqueueScanJob } from './enqueue-job.js';
import type { JobKind } from './job-kind.js';
import { jobsFor } from './jobs-for.js';

const BATCH = 500;

/** Enqueues the jobs of every image manifest no job names yet; returns how many were queued. */
export async function backfillScanJobs(store: Store, kinds: ReadonlyMap<string, JobKind>, signal: AbortSignal): Promise<number> {
  let after = '';
  let queued = 0;
  while (!signal.aborted) {
    const rows = await store.db
      .selectFrom('manifests as m')
      .select(['m.repo_uid', 'm.digest', 'm.media_type', 'm.artifact_type', 'm.subject_digest'])
      .where('m.media_type', 'in', [OCI_MANIFEST, DOCKER_MANIFEST])
      .where('m.digest', '>', after)
      .where(({ not, exists, selectFrom }) => not(exists(selectFrom('scan_jobs as j').select('j.digest').whereRef('j.digest', '=', 'm.digest'))))
      .orderBy('m.digest')
      .limit(BATCH)
      .execute();
    if (rows.length === 0) break;
    after = rows[rows.length - 1].digest;
    const seen = new Set<string>();
    const manifests: CreatedManifest[] = [];
    for (const r of rows) {
      if (seen.has(r.digest)) continue;
      seen.add(r.digest);
      manifests.push({
        repoUid: r.repo_uid,
        digest: r.digest,
        mediaType: r.media_type,
        kind: 'image',
        ...(r.artifact_type === null ? {} : { artifactType: r.artifact_type }),
        ...(r.subject_digest === null ? {} : { subjectDigest: r.subject_digest }),
      });
    }
    queued += await transact(store, async (tx) => {
      let n = 0;
      for (const m of manifests) for (const [kind, digest] of jobsFor(kinds, m)) if (await enqueueScanJob(tx, kind, digest)) n++;
      return n;
    });
    if (rows.length < BATCH) break;
  }
  return queued;
}

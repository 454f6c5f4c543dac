// The 'sbom-referrer' job: an SBOM was attached to an image after the fact,
// so the image is inventoried again with it merged (its 'inventory' job is
// queued again). Queuing the subject's own job, rather than writing here,
// keeps one run at a time per inventory and lets a run already in flight
// (which read the referrers before this one existed) be superseded. An SBOM
// attached to an index re-inventories each image of it. A subject not stored
// yet needs nothing: its own inventory will read the SBOM.
import { SBOM_ARTIFACT_TYPES } from './attached-sboms.js';
import { enqueueScanJob } from './enqueue-job.js';
import type { JobContext, JobKind, JobOutcome } from './job-kind.js';
import { INVENTORY_JOB } from './inventory-job.js';

export const SBOM_REFERRER_JOB = 'sbom-referrer';

async function run(ctx: JobContext): Promise<JobOutcome> {
  const db = ctx.store.db;
  const referrer = await db.selectFrom('manifests').select('subject_digest').where('digest', '=', ctx.job.digest).limit(1).executeTakeFirst();
  const subject = referrer?.subject_digest;
  if (!subject) return {};
  const images = await db
    .selectFrom('manifests')
    .select(['digest', 'media_type'])
    .where('digest', '=', subject)
    .where('subject_digest', 'is', null)
    .limit(1)
    .execute();
  if (images.length === 0) return {};
  const children = await db.selectFrom('manifest_refs').select('child_digest').where('manifest_digest', '=', subject).where('kind', '=', 'manifest').execute();
  const targets = [...new Set(children.length > 0 ? children.map((c) => c.child_digest) : [subject])];
  return {
    write: async (tx) => {
      for (const t of targets) {
        const job = await tx.selectFrom('scan_jobs').select('digest').where('kind', '=', INVENTORY_JOB).where('digest', '=', t).executeTakeFirst();
        // Only images that have (or had) an inventory job: a child that is itself not an image has none.
        if (job || children.length === 0) await enqueueScanJob(tx, INVENTORY_JOB, t, { again: true });
      }
    },
  };
}

export const sbomReferrerJob: JobKind = {
  triggeredBy: (m) => (m.subjectDigest !== undefined && m.artifactType !== undefined && SBOM_ARTIFACT_TYPES.includes(m.artifactType) ? [m.digest] : []),
  run,
};

// Scanning's ManifestObserver (src/registry/content/manifest-observer.ts):
// enqueues the jobs a new manifest calls for in the push's own transaction,
// so a push the client saw acknowledged always has its jobs, even after kill -9.
import type { CreatedManifest, ManifestObserver } from '../../registry/content/manifest-observer.js';
import type { Tx } from '../../store/transact.js';
import { enqueueScanJob } from './enqueue-job.js';
import type { JobKind } from './job-kind.js';
import { jobsFor } from './jobs-for.js';

export function scanObserver(kinds: ReadonlyMap<string, JobKind>): ManifestObserver {
  return {
    async manifestCreated(tx: Tx, manifest: CreatedManifest): Promise<void> {
      for (const [kind, digest] of jobsFor(kinds, manifest)) await enqueueScanJob(tx, kind, digest, { again: kinds.get(kind)?.requeue === true });
    },
  };
}

// Puts a scan job in the queue inside the caller's transaction. One row per
// kind and digest: enqueueing a job already queued, running or done changes
// nothing unless `again` (a re-scan: a new SBOM for the subject, an operator's
// request); a failed one is always queued again. A job re-queued while it
// runs gets a new generation, so the run in flight cannot finish it
// (scan-worker.ts) and it runs again with what changed.
import { nowIso } from '../../core/clock.js';
import { afterCommit, type Tx } from '../../store/transact.js';
import { JOB_FAILED, JOB_PENDING } from './job-states.js';
import { ringScanWorkers } from './scan-signal.js';

export interface EnqueueOptions {
  /** Run it again even if it is done, queued or running. */
  again?: boolean;
  now?: string;
}

/** Queues `kind` for `digest`; true when a run is now due that was not before. */
export async function enqueueScanJob(tx: Tx, kind: string, digest: string, opts: EnqueueOptions = {}): Promise<boolean> {
  const now = opts.now ?? nowIso();
  const fresh = {
    status: JOB_PENDING,
    attempts: 0,
    next_attempt_time: now,
    lease_owner: '',
    layers_done: 0,
    layers_total: 0,
    bytes_read: 0,
    update_time: now,
  };
  const inserted = await tx
    .insertInto('scan_jobs')
    .values({ kind, digest, generation: 0, error: '', create_time: now, finish_time: '', ...fresh })
    .onConflict((oc) => oc.columns(['kind', 'digest']).doNothing())
    .executeTakeFirst();
  let queued = Number(inserted.numInsertedOrUpdatedRows ?? 0n) > 0;
  if (!queued) {
    let update = tx
      .updateTable('scan_jobs')
      .set((eb) => ({ ...fresh, generation: eb('generation', '+', 1) }))
      .where('kind', '=', kind)
      .where('digest', '=', digest);
    if (!opts.again) update = update.where('status', '=', JOB_FAILED);
    queued = Number((await update.executeTakeFirst()).numUpdatedRows) > 0;
  }
  if (queued) afterCommit(tx, ringScanWorkers);
  return queued;
}

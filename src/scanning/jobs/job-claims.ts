// The scan job rows a worker claims, renews and settles. A claim sets the
// owner and next_attempt_time = the lease's end; every later write by the run
// checks it still holds the row (same owner and generation), so a run whose
// lease ran out, or whose job was queued again, writes nothing.
// On PostgreSQL candidates are read FOR UPDATE SKIP LOCKED, so the workers of
// several instances take disjoint jobs; SQLite has one writer, and a claim is
// one transaction.
import { nowIso } from '../../core/clock.js';
import type { Store } from '../../store/store.js';
import { transact, type Tx } from '../../store/transact.js';
import type { JobOutcome, RunningJob } from './job-kind.js';
import type { JobProgress } from './job-progress.js';
import { JOB_DONE, JOB_FAILED, JOB_PENDING, JOB_RUNNING, LEASE_MS, MAX_ATTEMPTS, retryDelayMs } from './job-states.js';

const MAX_ERROR = 2000;

/** Whether a job is due now (one index probe, no lock). */
export async function jobsDue(store: Store, now: number): Promise<boolean> {
  const row = await store.db
    .selectFrom('scan_jobs')
    .select('digest')
    .where('status', 'in', [JOB_PENDING, JOB_RUNNING])
    .where('next_attempt_time', '<=', new Date(now).toISOString())
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}

/**
 * Claims up to `slots` due jobs of the `kinds` this worker runs. A job whose
 * runs all ended without settling (its process died each time) is left
 * failed here instead of run again.
 */
export async function claimJobs(store: Store, owner: string, kinds: readonly string[], slots: number, now: number): Promise<RunningJob[]> {
  const nowText = new Date(now).toISOString();
  return transact(store, async (tx) => {
    const candidates = await store.caps
      .claimRows(
        tx
          .selectFrom('scan_jobs')
          .select(['kind', 'digest', 'generation', 'attempts', 'status', 'error'])
          .where('status', 'in', [JOB_PENDING, JOB_RUNNING])
          .where('next_attempt_time', '<=', nowText)
          .where('kind', 'in', kinds)
          .orderBy('next_attempt_time')
          .limit(slots),
      )
      .execute();
    const out: RunningJob[] = [];
    for (const c of candidates) {
      const where = (q: ReturnType<typeof update>) => q.where('kind', '=', c.kind).where('digest', '=', c.digest);
      const update = () => tx.updateTable('scan_jobs');
      if (c.attempts >= MAX_ATTEMPTS) {
        const why = c.status === JOB_RUNNING ? 'its last run did not finish (the process ended or stalled)' : c.error;
        await where(
          update().set({
            status: JOB_FAILED,
            lease_owner: '',
            finish_time: nowText,
            update_time: nowText,
            error: `gave up after ${c.attempts} runs: ${why}`.slice(0, MAX_ERROR),
          }),
        ).execute();
        continue;
      }
      await where(
        update().set({
          status: JOB_RUNNING,
          lease_owner: owner,
          attempts: c.attempts + 1,
          next_attempt_time: new Date(now + LEASE_MS).toISOString(),
          layers_done: 0,
          layers_total: 0,
          bytes_read: 0,
          update_time: nowText,
        }),
      ).execute();
      out.push({ kind: c.kind, digest: c.digest, generation: c.generation, attempt: c.attempts + 1 });
    }
    return out;
  });
}

/** The row while `owner`'s run of `job` still holds it. */
function held(tx: Tx, job: RunningJob, owner: string) {
  return tx
    .updateTable('scan_jobs')
    .where('kind', '=', job.kind)
    .where('digest', '=', job.digest)
    .where('generation', '=', job.generation)
    .where('lease_owner', '=', owner)
    .where('status', '=', JOB_RUNNING);
}

/** Extends the lease and writes progress; false when the run no longer holds the job. */
export async function renewJob(store: Store, job: RunningJob, owner: string, progress: JobProgress, now: number): Promise<boolean> {
  const r = await transact(store, (tx) =>
    held(tx, job, owner)
      .set({
        next_attempt_time: new Date(now + LEASE_MS).toISOString(),
        layers_done: progress.layersDone,
        layers_total: progress.layersTotal,
        bytes_read: progress.bytesRead,
        update_time: new Date(now).toISOString(),
      })
      .executeTakeFirst(),
  );
  return Number(r.numUpdatedRows) > 0;
}

/** Writes the run's outcome and marks the job done, if the run still holds it; false when it did not. */
export async function finishJob(store: Store, job: RunningJob, owner: string, progress: JobProgress, outcome: JobOutcome): Promise<boolean> {
  return transact(store, async (tx) => {
    const now = nowIso();
    const r = await held(tx, job, owner)
      .set({
        status: JOB_DONE,
        lease_owner: '',
        error: '',
        next_attempt_time: now,
        layers_done: progress.layersDone,
        layers_total: progress.layersTotal,
        bytes_read: progress.bytesRead,
        finish_time: now,
        update_time: now,
      })
      .executeTakeFirst();
    if (Number(r.numUpdatedRows) === 0) return false;
    await outcome.write?.(tx);
    return true;
  });
}

/** Records a failed run: queued again after a backoff, or failed for good after MAX_ATTEMPTS. */
export async function failJob(store: Store, job: RunningJob, owner: string, progress: JobProgress, error: string, now: number): Promise<void> {
  const nowText = new Date(now).toISOString();
  const last = job.attempt >= MAX_ATTEMPTS;
  await transact(store, (tx) =>
    held(tx, job, owner)
      .set({
        status: last ? JOB_FAILED : JOB_PENDING,
        lease_owner: '',
        error: error.slice(0, MAX_ERROR),
        next_attempt_time: last ? nowText : new Date(now + retryDelayMs(job.attempt)).toISOString(),
        layers_done: progress.layersDone,
        layers_total: progress.layersTotal,
        bytes_read: progress.bytesRead,
        finish_time: last ? nowText : '',
        update_time: nowText,
      })
      .execute(),
  );
}

/** Gives an unfinished run's job back (the worker stops): due again at once, the run not counted. */
export async function releaseJob(store: Store, job: RunningJob, owner: string): Promise<void> {
  const now = nowIso();
  await transact(store, (tx) =>
    held(tx, job, owner)
      .set((eb) => ({ status: JOB_PENDING, lease_owner: '', next_attempt_time: now, update_time: now, attempts: eb('attempts', '-', 1) }))
      .execute(),
  );
}

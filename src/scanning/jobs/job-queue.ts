// The scan job queue's depth by state, for the metrics gauge read at each
// scrape (src/runtime/queue-gauges.ts). One GROUP BY over scan_jobs.
import type { Kysely } from 'kysely';
import type { Database } from '../../store/database.js';
import { JOB_DONE, JOB_FAILED, JOB_PENDING, JOB_RUNNING } from './job-states.js';

/** Scan jobs by state (pending, running, done, failed); a state with none is 0. */
export async function scanJobsByState(db: Kysely<Database>): Promise<Array<{ state: string; count: number }>> {
  const rows = await db
    .selectFrom('scan_jobs')
    .select(['status', (eb) => eb.fn.countAll<number>().as('n')])
    .groupBy('status')
    .execute();
  const counts = new Map(rows.map((r) => [r.status, Number(r.n)]));
  return [JOB_PENDING, JOB_RUNNING, JOB_DONE, JOB_FAILED].map((state) => ({ state, count: counts.get(state) ?? 0 }));
}

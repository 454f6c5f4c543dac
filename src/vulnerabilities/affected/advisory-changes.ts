// Reading the change log range-writer.ts appends to: which (ecosystem,
// package) keys' advisories changed since a cursor. The scan side keeps the
// last id it handled and re-matches only the inventories holding these keys.
import type { Executor, Tx } from '../../store/transact.js';

export interface AdvisoryChange {
  /** Increasing; the cursor to pass next time. */
  id: number;
  ecosystem: string;
  package: string;
  changeTime: string;
}

/** Up to `limit` changes after `after` (0: from the start), oldest first. */
export async function readAdvisoryChanges(db: Executor | Tx, after: number, limit = 1000): Promise<AdvisoryChange[]> {
  const rows = await db
    .selectFrom('advisory_changes')
    .select(['id', 'ecosystem', 'package', 'change_time'])
    .where('id', '>', after)
    .orderBy('id')
    .limit(Math.max(1, Math.min(limit, 10_000)))
    .execute();
  // PostgreSQL returns bigserial as a string.
  return rows.map((r) => ({ id: Number(r.id), ecosystem: r.ecosystem, package: r.package, changeTime: r.change_time }));
}

/** The newest change's id (0 when none): where a worker that starts from the current state begins. */
export async function lastAdvisoryChange(db: Executor | Tx): Promise<number> {
  const row = await db
    .selectFrom('advisory_changes')
    .select((eb) => eb.fn.max('id').as('id'))
    .executeTakeFirst();
  return row?.id === null || row?.id === undefined ? 0 : Number(row.id);
}

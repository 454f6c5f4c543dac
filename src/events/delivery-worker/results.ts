// Writing what attempts came to, many at once, in the worker's transaction.
// A result is written only while its claim still holds the row: if the lease
// ran out and another worker took it, or an operator asked for a redelivery
// meanwhile, the late result is dropped (the row is being handled anew). A
// delivery that is done (delivered or dead) lets the next pending event of its
// subscription and subject go at once, instead of when its parking ends.
// Successes of one claim share one statement: they are most results.
import { sql } from 'kysely';
import type { Tx } from '../../store/transact.js';
import { distinctChains, headIds } from './chains.js';
import { DELIVERY_DEAD, DELIVERY_DELIVERED, DELIVERY_PENDING } from '../events-tables.js';

export const MAX_ERROR_CHARS = 500;
const CHAINS_PER_STATEMENT = 200;

export interface AttemptResult {
  id: number;
  lease_owner: string;
  subscription_uid: string;
  subject: string;
  outbox_id: number;
  outcome: 'delivered' | 'retry' | 'dead';
  /** The sink's HTTP status; 0 without an answer. */
  statusCode: number;
  error: string;
  /** For 'retry': when (ms since the epoch). */
  nextAttempt?: number;
}

export async function writeResults(tx: Tx, results: readonly AttemptResult[], now: number): Promise<void> {
  if (results.length === 0) return;
  const nowIso = new Date(now).toISOString();
  const delivered = new Map<string, number[]>();
  for (const r of results) {
    if (r.outcome === 'delivered') {
      const key = `${r.lease_owner}\u0000${r.statusCode}`;
      delivered.set(key, [...(delivered.get(key) ?? []), r.id]);
      continue;
    }
    await tx
      .updateTable('event_deliveries')
      .set({
        status: r.outcome === 'dead' ? DELIVERY_DEAD : DELIVERY_PENDING,
        next_attempt_time: r.outcome === 'dead' ? '' : new Date(r.nextAttempt ?? now).toISOString(),
        lease_owner: '',
        last_status_code: r.statusCode,
        last_error: r.error.slice(0, MAX_ERROR_CHARS),
      })
      .where('id', '=', r.id)
      .where('lease_owner', '=', r.lease_owner)
      .execute();
  }
  for (const [key, ids] of delivered) {
    const [owner, code] = key.split('\u0000');
    await tx
      .updateTable('event_deliveries')
      .set({ status: DELIVERY_DELIVERED, next_attempt_time: '', lease_owner: '', last_status_code: Number(code), last_error: '', delivered_time: nowIso })
      .where('id', 'in', ids)
      .where('lease_owner', '=', owner)
      .execute();
  }
  // Wake the parked head of each chain that moved on (not one in flight, nor one waiting out its backoff after an attempt).
  const done = distinctChains(results.filter((r) => r.outcome !== 'retry'));
  for (let i = 0; i < done.length; i += CHAINS_PER_STATEMENT) {
    await tx
      .updateTable('event_deliveries')
      .set({ next_attempt_time: nowIso })
      .where('id', 'in', sql<number>`(${headIds(done.slice(i, i + CHAINS_PER_STATEMENT))})`)
      .where('lease_owner', '=', '')
      .where('attempts', '=', 0)
      .where('next_attempt_time', '>', nowIso)
      .execute();
  }
}

// Static-key assertions are single use. Each accepted one is recorded in the
// database, so every instance sees it, until it could no longer be accepted
// anyway; recording one that is already there means it is being replayed.
import { createHash } from 'node:crypto';
import type { JWTPayload } from 'jose';
import type { Tx } from '../store/transact.js';

// Expired rows deleted per recorded assertion: keeps the table near the number
// of live assertions without a sweeper, and each delete small.
const PRUNE_BATCH = 100;
/** The longest an assertion is accepted after it was issued (maxTokenAge). */
export const ASSERTION_MAX_AGE_SECONDS = 3600;
// Rows outlive their assertion by this much, so an instance whose clock lags
// cannot accept an assertion whose row another instance already pruned.
const CLOCK_SKEW_SECONDS = 300;

/** The row id: per (iss, sub, jti) when the assertion has a jti, else per assertion. */
export function assertionId(assertion: string, payload: JWTPayload): string {
  const source =
    typeof payload.jti === 'string' && payload.jti !== '' ? `jti\0${payload.iss ?? ''}\0${payload.sub ?? ''}\0${payload.jti}` : `jwt\0${assertion}`;
  return createHash('sha256').update(source).digest('hex');
}

/** Until when a verified assertion's row is kept: its exp or iat + the maximum age, plus skew. */
export function assertionExpiry(payload: JWTPayload): Date {
  const seconds = Math.min(Number(payload.exp), Number(payload.iat) + ASSERTION_MAX_AGE_SECONDS);
  return new Date((seconds + CLOCK_SKEW_SECONDS) * 1000);
}

/** Records a verified assertion with `tx`; false when it was recorded before (a replay). */
export async function recordAssertion(tx: Tx, id: string, expiry: Date): Promise<boolean> {
  const now = new Date().toISOString();
  const expired = tx.selectFrom('used_assertions').select('id').where('expire_time', '<=', now).limit(PRUNE_BATCH);
  await tx.deleteFrom('used_assertions').where('id', 'in', expired).execute();
  const r = await tx
    .insertInto('used_assertions')
    .values({ id, expire_time: expiry.toISOString() })
    .onConflict((oc) => oc.column('id').doNothing())
    .executeTakeFirst();
  return Number(r.numInsertedOrUpdatedRows ?? 0n) === 1;
}

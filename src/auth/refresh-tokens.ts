// Refresh tokens: /sts/exchange hands one out with every token, and
// /sts/exchange_refresh_token trades it for a new token and a new refresh
// token (rotation). Only their sha256 is stored, with the chain they belong to
// (every token rotated from one exchange) and whether they were used. A used
// refresh token presented again means it leaked: the whole chain is revoked,
// so neither the thief nor the owner can go on with it. A chain whose identity
// was deleted is revoked on its next use too.
//
// A token's first six bytes are its issue time in milliseconds (the other 26
// random), and its row id is that time in hex before the hash; a chain's id is
// a time-ordered UUID. Each insert then lands at the right edge of the primary
// key and chain indexes instead of on a random page: with random keys the
// insert and its commit cost 48 µs of SQLite CPU at 50,000 rows, with ordered
// ones 30 µs (measured in node:sqlite with this table's indexes). Rows written
// before were keyed by the bare hash, which a lookup still tries.
import { createHash, randomBytes } from 'node:crypto';
import type { JWTPayload } from 'jose';
import { v7 as timeOrderedUuid } from 'uuid';
import { insertCompiled } from '../store/compiled-queries.js';
import type { Store } from '../store/store.js';
import { transact, type Tx } from '../store/transact.js';

/** How long a refresh token can be traded, from its issue. */
export const REFRESH_TTL_SECONDS = 7 * 24 * 3600;
const PREFIX = 'berth_rt_';
const TOKEN = /^berth_rt_[A-Za-z0-9_-]{43}$/;
// Expired rows are deleted by the writes themselves, a batch every PRUNE_EVERY
// inserts: up to PRUNE_BATCH / PRUNE_EVERY (3) rows per insert keeps the table
// near its live size at any issue rate without a sweeper, and costs a
// thirty-second of the delete (it was a sixth of an exchange's CPU on every insert).
const PRUNE_BATCH = 100;
const PRUNE_EVERY = 32;
let insertsSincePrune = PRUNE_EVERY;

export interface RefreshGrant {
  identityUid: string;
  audience: string;
  /** The narrowing claims the chain's tokens carry. */
  narrowing: JWTPayload;
}

export interface IssuedRefreshToken {
  token: string;
  expiry: Date;
}

const STAMP_BYTES = 6;

function hashOf(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

/** A new token — its issue time (ms, big-endian), then 208 random bits — and the id its row is stored under. */
export function newRefreshToken(nowMs: number): { token: string; id: string } {
  const bytes = randomBytes(32);
  bytes.writeUIntBE(nowMs, 0, STAMP_BYTES);
  const token = `${PREFIX}${bytes.toString('base64url')}`;
  return { token, id: `${bytes.subarray(0, STAMP_BYTES).toString('hex')}${hashOf(token)}` };
}

/** The ids a well-formed token may be stored under: its time-ordered id (as newRefreshToken makes it), and the bare hash of rows written before ids were. */
function idsOf(token: string): [string, string] {
  const hash = hashOf(token);
  const stamp = Buffer.from(token.slice(PREFIX.length), 'base64url').subarray(0, STAMP_BYTES).toString('hex');
  return [`${stamp}${hash}`, hash];
}

/** Adds a refresh token to chain `chainId`; returns it. */
async function insert(tx: Tx, grant: RefreshGrant, chainId: string): Promise<IssuedRefreshToken> {
  const now = new Date();
  const { token, id } = newRefreshToken(now.getTime());
  const expiry = new Date(now.getTime() + REFRESH_TTL_SECONDS * 1000);
  if (++insertsSincePrune >= PRUNE_EVERY) {
    insertsSincePrune = 0;
    const expired = tx.selectFrom('refresh_tokens').select('id').where('expire_time', '<=', now.toISOString()).limit(PRUNE_BATCH);
    await tx.deleteFrom('refresh_tokens').where('id', 'in', expired).execute();
  }
  // Compiled once: every exchange and every rotation runs it.
  await insertCompiled(tx, 'refresh_tokens', {
    id,
    chain_id: chainId,
    identity_uid: grant.identityUid,
    audience: grant.audience,
    narrowing: JSON.stringify(grant.narrowing),
    used: 0,
    expire_time: expiry.toISOString(),
    create_time: now.toISOString(),
  });
  return { token, expiry };
}

/** A new chain's first refresh token, written with `tx` (the exchange's other writes share its commit). */
export function issueRefreshToken(tx: Tx, grant: RefreshGrant): Promise<IssuedRefreshToken> {
  return insert(tx, grant, timeOrderedUuid());
}

export type RotateResult = { ok: true; grant: RefreshGrant; next: IssuedRefreshToken } | { ok: false };

/**
 * Marks the refresh token used and issues the next of its chain, if it is live
 * and `identityExists(uid)`; a reused one revokes (deletes) its whole chain,
 * as does one whose identity is gone.
 */
export async function rotateRefreshToken(store: Store, token: string, identityExists: (uid: string) => Promise<boolean>): Promise<RotateResult> {
  if (!TOKEN.test(token)) return { ok: false };
  const row = await store.db.selectFrom('refresh_tokens').selectAll().where('id', 'in', idsOf(token)).executeTakeFirst();
  if (!row) return { ok: false };
  const { id } = row;
  const alive = row.used === 0 && row.expire_time > new Date().toISOString() && (await identityExists(row.identity_uid));
  return transact(store, async (tx): Promise<RotateResult> => {
    // Claim it: only one rotation wins, on any instance; a loser is a reuse.
    const claimed = alive ? await tx.updateTable('refresh_tokens').set({ used: 1 }).where('id', '=', id).where('used', '=', 0).executeTakeFirst() : undefined;
    if (!claimed || Number(claimed.numUpdatedRows) !== 1) {
      await tx.deleteFrom('refresh_tokens').where('chain_id', '=', row.chain_id).execute();
      return { ok: false };
    }
    const grant: RefreshGrant = { identityUid: row.identity_uid, audience: row.audience, narrowing: JSON.parse(row.narrowing) as JWTPayload };
    return { ok: true, grant, next: await insert(tx, grant, row.chain_id) };
  });
}

/** Deletes the chain of `token` (logout); nothing when it is unknown. */
export async function revokeRefreshToken(store: Store, token: string): Promise<void> {
  if (!TOKEN.test(token)) return;
  const row = await store.db.selectFrom('refresh_tokens').select('chain_id').where('id', 'in', idsOf(token)).executeTakeFirst();
  if (row) await transact(store, (tx) => tx.deleteFrom('refresh_tokens').where('chain_id', '=', row.chain_id).execute());
}

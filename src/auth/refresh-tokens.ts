// Refresh tokens: /sts/exchange and a sign in hand one out with every token,
// and /sts/exchange_refresh_token trades it for a new token and the next
// refresh token of its chain (rotation). A used refresh token presented again
// means it leaked: the whole chain is revoked, so neither the thief nor the
// owner can go on with it. A chain whose identity was deleted no longer rotates.
//
// A token carries its own grant under a MAC (refresh-token-seal.ts), so
// handing one out writes nothing: the row each exchange used to insert, and its
// commit, were a large share of an exchange's CPU (docs/performance.md). Rotation keeps what every instance
// must agree on, one row per chain that was rotated or revoked
// (refresh_chains): the generation the chain takes next, advanced by a
// conditional upsert, so of two rotations of one token only one wins, on any
// instance, and the other is a reuse. A revoked chain's row is kept until every
// token of it has expired; other rows until their newest token has.
//
// Tokens of the earlier form (32 random bytes, stored by hash in
// refresh_tokens) still rotate, once, into the sealed form; reusing one revokes
// its chain there too. None is live a week after the upgrade.
import { createHash } from 'node:crypto';
import type { JWTPayload } from 'jose';
import { v7 as timeOrderedUuid } from 'uuid';
import { nowIso } from '../core/clock.js';
import type { Store } from '../store/store.js';
import { transact, type Tx } from '../store/transact.js';
import { type IssuedRefreshToken, REFRESH_TOKEN_PREFIX, REFRESH_TTL_SECONDS, type RefreshGrant, type RefreshTokenSeal } from './refresh-token-seal.js';

/** The earlier form: random, looked up by hash. */
const STORED = /^berth_rt_[A-Za-z0-9_-]{43}$/;
// Expired chain rows (and rows of the earlier form) are deleted by rotations
// themselves, a batch every PRUNE_EVERY: up to 3 rows per rotation keeps the
// tables near their live size without a sweeper.
const PRUNE_BATCH = 100;
const PRUNE_EVERY = 32;

export type RotateResult = { ok: true; grant: RefreshGrant; next: IssuedRefreshToken } | { ok: false };

/** The ids a token of the earlier form may be stored under: issue time (6 bytes, hex) before its sha256, or the bare sha256. */
function storedIdsOf(token: string): [string, string] {
  const hash = createHash('sha256').update(token).digest('hex');
  const stamp = Buffer.from(token.slice(REFRESH_TOKEN_PREFIX.length), 'base64url').subarray(0, 6).toString('hex');
  return [`${stamp}${hash}`, hash];
}

function isoIn(seconds: number): string {
  return new Date(Date.now() + seconds * 1000).toISOString();
}

/** Marks chain `chainId` revoked until every token it may have issued so far has expired. */
async function revokeChain(tx: Tx, chainId: string): Promise<void> {
  const until = isoIn(REFRESH_TTL_SECONDS);
  await tx
    .insertInto('refresh_chains')
    .values({ chain_id: chainId, next_generation: 0, revoked: 1, expire_time: until })
    .onConflict((oc) => oc.column('chain_id').doUpdateSet({ revoked: 1, expire_time: until }))
    .execute();
}

/**
 * Moves chain `chainId` from generation `generation` to the next, whose token
 * expires at `expiry`; false when the chain is past it (the token was used) or
 * revoked. A chain without a row has rotated no token yet.
 */
async function advance(tx: Tx, chainId: string, generation: number, expiry: Date): Promise<boolean> {
  const next = generation + 1;
  const expire_time = expiry.toISOString();
  const r = await tx
    .insertInto('refresh_chains')
    .values({ chain_id: chainId, next_generation: next, revoked: 0, expire_time })
    .onConflict((oc) =>
      oc
        .column('chain_id')
        .doUpdateSet({ next_generation: next, expire_time })
        .where('refresh_chains.next_generation', '=', generation)
        .where('refresh_chains.revoked', '=', 0),
    )
    .executeTakeFirst();
  return Number(r.numInsertedOrUpdatedRows ?? 0) === 1;
}

export class RefreshTokens {
  private rotationsSincePrune = PRUNE_EVERY;

  constructor(
    private readonly store: Store,
    /** The seal of the issuer's current key ring (it changes when the signing keys are rotated). */
    private readonly seal: () => RefreshTokenSeal,
  ) {}

  private get sealer(): RefreshTokenSeal {
    return this.seal();
  }

  /** A new chain's first refresh token. Writes nothing. */
  issue(grant: RefreshGrant): IssuedRefreshToken {
    return this.sealer.seal(timeOrderedUuid(), 0, grant);
  }

  /**
   * The next token of the chain and the grant, if `token` is live, its chain's
   * current generation and `identityExists(uid)`; a used one revokes its chain.
   */
  async rotate(token: string, identityExists: (uid: string) => Promise<boolean>): Promise<RotateResult> {
    if (STORED.test(token)) return this.rotateStored(token, identityExists);
    const s = this.sealer.open(token);
    if (!s || !(await identityExists(s.i))) return { ok: false };
    const grant: RefreshGrant = { identityUid: s.i, audience: s.a, narrowing: s.n };
    const next = this.sealer.seal(s.c, s.g + 1, grant);
    return transact(this.store, async (tx): Promise<RotateResult> => {
      await this.prune(tx);
      if (await advance(tx, s.c, s.g, next.expiry)) return { ok: true, grant, next };
      await revokeChain(tx, s.c);
      return { ok: false };
    });
  }

  /** Revokes the chain of `token` (logout); nothing when it is not a live token. */
  async revoke(token: string): Promise<void> {
    if (STORED.test(token)) {
      const row = await this.store.db.selectFrom('refresh_tokens').select('chain_id').where('id', 'in', storedIdsOf(token)).executeTakeFirst();
      if (row) await transact(this.store, (tx) => this.forgetStoredChain(tx, row.chain_id));
      return;
    }
    const s = this.sealer.open(token);
    if (s) await transact(this.store, (tx) => revokeChain(tx, s.c));
  }

  /** A token of the earlier form: marked used, it becomes the first token of this form of its chain. */
  private async rotateStored(token: string, identityExists: (uid: string) => Promise<boolean>): Promise<RotateResult> {
    const row = await this.store.db.selectFrom('refresh_tokens').selectAll().where('id', 'in', storedIdsOf(token)).executeTakeFirst();
    if (!row) return { ok: false };
    const alive = row.used === 0 && row.expire_time > nowIso() && (await identityExists(row.identity_uid));
    return transact(this.store, async (tx): Promise<RotateResult> => {
      await this.prune(tx);
      // Claim it: only one rotation wins, on any instance; a loser is a reuse.
      const claimed = alive
        ? await tx.updateTable('refresh_tokens').set({ used: 1 }).where('id', '=', row.id).where('used', '=', 0).executeTakeFirst()
        : undefined;
      if (!claimed || Number(claimed.numUpdatedRows) !== 1) {
        await this.forgetStoredChain(tx, row.chain_id);
        return { ok: false };
      }
      const grant: RefreshGrant = { identityUid: row.identity_uid, audience: row.audience, narrowing: JSON.parse(row.narrowing) as JWTPayload };
      return { ok: true, grant, next: this.sealer.seal(row.chain_id, 0, grant) };
    });
  }

  /** Deletes a chain's rows of the earlier form and revokes what it became in this form. */
  private async forgetStoredChain(tx: Tx, chainId: string): Promise<void> {
    await tx.deleteFrom('refresh_tokens').where('chain_id', '=', chainId).execute();
    await revokeChain(tx, chainId);
  }

  private async prune(tx: Tx): Promise<void> {
    if (++this.rotationsSincePrune < PRUNE_EVERY) return;
    this.rotationsSincePrune = 0;
    const now = nowIso();
    const chains = tx.selectFrom('refresh_chains').select('chain_id').where('expire_time', '<=', now).limit(PRUNE_BATCH);
    await tx.deleteFrom('refresh_chains').where('chain_id', 'in', chains).execute();
    const stored = tx.selectFrom('refresh_tokens').select('id').where('expire_time', '<=', now).limit(PRUNE_BATCH);
    await tx.deleteFrom('refresh_tokens').where('id', 'in', stored).execute();
  }
}

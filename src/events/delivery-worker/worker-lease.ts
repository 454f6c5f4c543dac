// Where the database cannot share rows out between workers (SQLite: no SKIP
// LOCKED), one process at a time runs the delivery worker: it holds a lease
// row, renewed well before it runs out. Another process takes over once the
// holder stops (it gives the lease up) or dies (the lease runs out). Checks
// read first and write only to take or renew, so a process waiting for the
// lease costs the shared file one read per pass.
import type { Store } from '../../store/store.js';
import { transact } from '../../store/transact.js';

export const WORKER_LEASE_MS = 15_000;
/** Renew once less than this is left (about every 5 s). */
const RENEW_BELOW_MS = 10_000;

export class WorkerLease {
  /** When the lease this process holds ends (ms); 0 when it holds none. */
  private heldUntil = 0;

  constructor(
    private readonly store: Store,
    private readonly name: string,
    private readonly owner: string,
  ) {}

  /** Whether this process holds the lease now (taking or renewing it when due). */
  async hold(now: number): Promise<boolean> {
    if (this.heldUntil - now > RENEW_BELOW_MS) return true;
    const nowIso = new Date(now).toISOString();
    const seen = await this.store.db.selectFrom('event_worker_leases').selectAll().where('name', '=', this.name).executeTakeFirst();
    if (seen && seen.owner !== this.owner && seen.expire_time > nowIso) {
      this.heldUntil = 0;
      return false;
    }
    const until = now + WORKER_LEASE_MS;
    const taken = await transact(this.store, async (tx) => {
      const row = await tx.selectFrom('event_worker_leases').selectAll().where('name', '=', this.name).executeTakeFirst();
      if (row && row.owner !== this.owner && row.expire_time > nowIso) return false;
      await tx
        .insertInto('event_worker_leases')
        .values({ name: this.name, owner: this.owner, expire_time: new Date(until).toISOString() })
        .onConflict((oc) => oc.column('name').doUpdateSet({ owner: this.owner, expire_time: new Date(until).toISOString() }))
        .execute();
      return true;
    });
    this.heldUntil = taken ? until : 0;
    return taken;
  }

  /** Gives the lease up, so another process takes over without waiting for it to run out. */
  async release(): Promise<void> {
    if (this.heldUntil === 0) return;
    this.heldUntil = 0;
    await transact(this.store, (tx) =>
      tx.updateTable('event_worker_leases').set({ expire_time: '' }).where('name', '=', this.name).where('owner', '=', this.owner).execute(),
    );
  }
}

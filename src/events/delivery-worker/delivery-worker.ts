// The delivery worker, one per serving process (src/runtime/start-server.ts). A pass:
// (on SQLite, only while this process holds the worker lease) prune now and
// then; then, in one transaction, write the results of finished attempts, fan
// new events out into deliveries and claim due deliveries up to MAX_IN_FLIGHT;
// then start their POSTs.
// A pass runs when an attempt finishes, when this process commits an event
// (delivery-signal.ts), or every POLL_MS (events other instances wrote). What
// is acknowledged is never lost: the outbox row commits with the change, a
// fan-out commits with its mark, and a claim is a lease that runs out if this
// process dies before writing the result, so the delivery is sent again, with
// the same ce-id.
import { randomUUID, type KeyObject } from 'node:crypto';
import type { Logger } from 'pino';
import { metrics } from '../../core/metrics.js';
import type { Issuer } from '../../auth/issuer.js';
import type { BackgroundWorker } from '../../runtime/runtime.js';
import type { Store } from '../../store/store.js';
import { transact } from '../../store/transact.js';
import type { EventSettings } from '../event-settings.js';
import { claimDeliveries, deliveriesDue, type ClaimedDelivery } from './claim.js';
import { attemptDelivery, failedAttempt, type AttemptContext } from './delivery-attempt.js';
import { DeliveryTokens } from './delivery-tokens.js';
import { onDeliveryWork } from './delivery-signal.js';
import { fanOutBatch, fanOutPending } from './fan-out.js';
import { pruneDeliveries } from './prune.js';
import { writeResults, type AttemptResult } from './results.js';
import { WorkerLease } from './worker-lease.js';

export const POLL_MS = 100;
export const MAX_IN_FLIGHT = 32;
const PRUNE_EVERY_MS = 60_000;
/** On stop, attempts in flight get this long to finish before they are abandoned (and retried later). */
const STOP_GRACE_MS = 5_000;
const MAX_ERROR_BACKOFF_MS = 5_000;
/**
 * A finished attempt wakes the worker this much later, so results of attempts
 * finishing together are written, and their slots refilled, by one pass (one
 * transaction) rather than one each.
 */
const GATHER_RESULTS_MS = 2;
/**
 * A committed event wakes it this much later: under load, a pass per event
 * made every write wait behind the worker's own (SQLite has one writer).
 */
const GATHER_EVENTS_MS = 10;

export interface DeliveryWorkerDeps {
  store: Store;
  issuer: Issuer;
  /** The API URL: ce-source and the tokens' iss. */
  url: string;
  events: EventSettings;
  /** The operator's secrets key, which opens sealed signing secrets. */
  secrets?: KeyObject;
  logger: Logger;
}

interface InFlight {
  abort: AbortController;
  done: Promise<void>;
}

export class DeliveryWorker implements BackgroundWorker {
  readonly name = 'event delivery';
  private readonly owner = randomUUID();
  private readonly lease: WorkerLease | undefined;
  private readonly attempts: AttemptContext;
  private readonly inFlight = new Map<number, InFlight>();
  /** Attempts in flight per subscription. */
  private readonly perSubscription = new Map<string, number>();
  private results: AttemptResult[] = [];
  private claims = 0;
  private stopping = false;
  private woken = false;
  private waiter: (() => void) | undefined;
  private loopDone: Promise<void> | undefined;
  private unsubscribe: (() => void) | undefined;
  private nextPrune = 0;
  private gathering: NodeJS.Timeout | undefined;
  /** When the pending gathering timer fires (ms). */
  private gatherAt = 0;

  constructor(private readonly deps: DeliveryWorkerDeps) {
    // Where rows cannot be shared out between instances, one process works at a time.
    this.lease = deps.store.caps.skipLocked ? undefined : new WorkerLease(deps.store, 'event-delivery', this.owner);
    this.attempts = {
      message: {
        tokens: new DeliveryTokens(deps.issuer, deps.events.audience),
        source: deps.url,
        namespace: deps.events.namespace,
        audience: deps.events.audience,
      },
      secrets: deps.secrets,
      allowInsecure: deps.events.allowInsecureSinks,
      maxAgeMs: deps.events.maxAgeMs,
      logger: deps.logger,
    };
  }

  start(): void {
    this.unsubscribe = onDeliveryWork(() => this.wakeSoon(GATHER_EVENTS_MS));
    this.loopDone = this.loop();
  }

  async stop(): Promise<void> {
    this.stopping = true;
    clearTimeout(this.gathering);
    this.unsubscribe?.();
    this.wake();
    await this.loopDone;
    const all = Promise.allSettled([...this.inFlight.values()].map((f) => f.done));
    let timer: NodeJS.Timeout | undefined;
    const grace = new Promise<'late'>((r) => {
      timer = setTimeout(() => r('late'), STOP_GRACE_MS);
    });
    if ((await Promise.race([all, grace])) === 'late') {
      for (const f of this.inFlight.values()) f.abort.abort();
      await all;
    }
    clearTimeout(timer);
    try {
      await this.flushResults();
      await this.lease?.release();
    } catch (err) {
      this.deps.logger.warn(
        { err: { message: (err as Error).message } },
        'event delivery: could not record the last results (their leases will run out and they are retried)',
      );
    }
  }

  /** Wakes the worker `ms` from now, unless a wake is already on its way by then. */
  private wakeSoon(ms: number): void {
    if (this.woken) return;
    const at = Date.now() + ms;
    if (this.gathering) {
      if (this.gatherAt <= at) return;
      clearTimeout(this.gathering);
    }
    this.gatherAt = at;
    this.gathering = setTimeout(() => {
      this.gathering = undefined;
      this.wake();
    }, ms);
  }

  private wake(): void {
    this.woken = true;
    const w = this.waiter;
    this.waiter = undefined;
    w?.();
  }

  private idle(ms: number): Promise<void> {
    if (this.woken || this.stopping) {
      this.woken = false;
      return Promise.resolve();
    }
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.waiter = undefined;
        resolve();
      }, ms);
      this.waiter = () => {
        clearTimeout(timer);
        this.woken = false;
        resolve();
      };
    });
  }

  private async loop(): Promise<void> {
    let failures = 0;
    while (!this.stopping) {
      let busy = false;
      try {
        busy = await this.pass();
        failures = 0;
      } catch (err) {
        // The database went away (or is locked by another process): try again, backing off.
        if (failures === 0) this.deps.logger.warn({ err: { message: (err as Error).message } }, 'event delivery pass failed; retrying');
        failures++;
        await this.idle(Math.min(MAX_ERROR_BACKOFF_MS, POLL_MS * 2 ** failures));
        continue;
      }
      if (!busy) await this.idle(POLL_MS);
    }
  }

  /**
   * One pass; true when it found work (so another pass follows at once).
   * Results, fan-out and claims share one transaction: on SQLite, where
   * every writer waits its turn, a pass waits for the write lock once.
   */
  private async pass(): Promise<boolean> {
    const { store } = this.deps;
    const now = Date.now();
    // Without the lease this process only writes the results of attempts it made while it held it.
    const working = !this.lease || (await this.lease.hold(now));
    if (working && now >= this.nextPrune) {
      this.nextPrune = now + PRUNE_EVERY_MS;
      await pruneDeliveries(store, this.deps.events.retentionMs, now);
    }
    const fanOut = working && (await fanOutPending(store));
    const slots = working && !this.stopping ? MAX_IN_FLIGHT - this.inFlight.size : 0;
    const results = this.results;
    // Results may wake parked deliveries (results.ts), and a fan-out adds some: claim after either.
    const claim = slots > 0 && (fanOut || results.length > 0 || (await deliveriesDue(store, new Date(now).toISOString())));
    if (results.length === 0 && !fanOut && !claim) return false;
    this.results = [];
    const owner = `${this.owner}:${++this.claims}`;
    let done: { fanned: number; claimed: ClaimedDelivery[] };
    try {
      done = await transact(store, async (tx) => {
        await writeResults(tx, results, Date.now());
        const fanned = fanOut ? await fanOutBatch(tx, store.caps) : 0;
        const claimed = claim ? await claimDeliveries(tx, store.caps, owner, slots, this.perSubscription, Date.now()) : [];
        return { fanned, claimed };
      });
    } catch (err) {
      this.results = [...results, ...this.results]; // written on a later pass, while their claims still hold
      throw err;
    }
    for (const c of done.claimed) this.dispatch(c);
    return done.fanned > 0 || done.claimed.length > 0;
  }

  private async flushResults(): Promise<void> {
    const results = this.results;
    this.results = [];
    if (results.length > 0) await transact(this.deps.store, (tx) => writeResults(tx, results, Date.now()));
  }

  private dispatch(c: ClaimedDelivery): void {
    const abort = new AbortController();
    const done = attemptDelivery(this.attempts, c, abort.signal)
      .catch((err: unknown): AttemptResult => {
        this.deps.logger.error(
          { err: { name: (err as Error).name, code: (err as { code?: unknown }).code }, delivery: c.id },
          'event delivery attempt failed unexpectedly',
        );
        return failedAttempt(this.attempts, c, 0, 'internal error while sending');
      })
      .then((result) => {
        this.results.push(result);
        metrics()?.deliveries.inc({ outcome: result.outcome });
        this.inFlight.delete(c.id);
        const n = (this.perSubscription.get(c.subscription_uid) ?? 1) - 1;
        if (n > 0) this.perSubscription.set(c.subscription_uid, n);
        else this.perSubscription.delete(c.subscription_uid);
        if (this.stopping) this.wake();
        else this.wakeSoon(GATHER_RESULTS_MS);
      });
    this.inFlight.set(c.id, { abort, done });
    this.perSubscription.set(c.subscription_uid, (this.perSubscription.get(c.subscription_uid) ?? 0) + 1);
  }
}

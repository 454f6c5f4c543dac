// The delivery worker, one per serving process (src/server/app.ts). A pass:
// write the results of finished attempts, then (on SQLite, only while this
// process holds the worker lease) prune now and then, fan new events out into
// deliveries, claim due deliveries up to MAX_IN_FLIGHT and start their POSTs.
// A pass runs when an attempt finishes, when this process commits an event
// (delivery-signal.ts), or every POLL_MS (events other instances wrote). What
// is acknowledged is never lost: the outbox row commits with the change, a
// fan-out commits with its mark, and a claim is a lease that runs out if this
// process dies before writing the result, so the delivery is sent again, with
// the same ce-id.
import { randomUUID, type KeyObject } from 'node:crypto';
import type { Logger } from 'pino';
import type { Issuer } from '../../auth/issuer.js';
import type { BackgroundWorker } from '../../runtime/runtime.js';
import type { Store } from '../../store/store.js';
import type { EventSettings } from '../event-settings.js';
import { claimDeliveries, deliveriesDue, type ClaimedDelivery } from './claim.js';
import { deliveryMessage, type MessageContext } from './delivery-message.js';
import { onDeliveryWork } from './delivery-signal.js';
import { fanOutBatch, fanOutPending } from './fan-out.js';
import { pruneDeliveries } from './prune.js';
import { writeResults, type AttemptResult } from './results.js';
import { nextAttempt } from './retry-schedule.js';
import { openSigningSecret } from './signing-secret.js';
import { postToSink, SinkFailure } from './sink-request.js';
import { WorkerLease } from './worker-lease.js';

export const POLL_MS = 100;
export const MAX_IN_FLIGHT = 16;
const PRUNE_EVERY_MS = 60_000;
/** On stop, attempts in flight get this long to finish before they are abandoned (and retried later). */
const STOP_GRACE_MS = 5_000;
const MAX_ERROR_BACKOFF_MS = 5_000;

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
  private readonly message: MessageContext;
  private readonly inFlight = new Map<number, InFlight>();
  private results: AttemptResult[] = [];
  private claims = 0;
  private stopping = false;
  private woken = false;
  private waiter: (() => void) | undefined;
  private loopDone: Promise<void> | undefined;
  private unsubscribe: (() => void) | undefined;
  private nextPrune = 0;

  constructor(private readonly deps: DeliveryWorkerDeps) {
    // Where rows cannot be shared out between instances, one process works at a time.
    this.lease = deps.store.caps.skipLocked ? undefined : new WorkerLease(deps.store, 'event-delivery', this.owner);
    this.message = { issuer: deps.issuer, source: deps.url, namespace: deps.events.namespace, audience: deps.events.audience };
  }

  start(): void {
    this.unsubscribe = onDeliveryWork(() => this.wake());
    this.loopDone = this.loop();
  }

  async stop(): Promise<void> {
    this.stopping = true;
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
      await this.flushResults(Date.now());
      await this.lease?.release();
    } catch (err) {
      this.deps.logger.warn(
        { err: { message: (err as Error).message } },
        'event delivery: could not record the last results (their leases will run out and they are retried)',
      );
    }
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

  /** One pass; true when it found work (so another pass follows at once). */
  private async pass(): Promise<boolean> {
    const { store } = this.deps;
    const now = Date.now();
    await this.flushResults(now);
    if (this.lease && !(await this.lease.hold(now))) return false;
    if (now >= this.nextPrune) {
      this.nextPrune = now + PRUNE_EVERY_MS;
      await pruneDeliveries(store, this.deps.events.retentionMs, now);
    }
    let busy = false;
    if (await fanOutPending(store)) busy = (await fanOutBatch(store)) > 0;
    const slots = MAX_IN_FLIGHT - this.inFlight.size;
    if (slots > 0 && !this.stopping && (await deliveriesDue(store, new Date().toISOString()))) {
      this.claims++;
      const claimed = await claimDeliveries(store, `${this.owner}:${this.claims}`, slots, Date.now());
      for (const c of claimed) this.dispatch(c);
      busy ||= claimed.length > 0;
    }
    return busy;
  }

  private async flushResults(now: number): Promise<void> {
    if (this.results.length === 0) return;
    const batch = this.results;
    this.results = [];
    try {
      await writeResults(this.deps.store, batch, now);
    } catch (err) {
      this.results = [...batch, ...this.results]; // written on a later pass, while their claims still hold
      throw err;
    }
  }

  private dispatch(c: ClaimedDelivery): void {
    const abort = new AbortController();
    const done = this.attempt(c, abort.signal)
      .catch((err: unknown): AttemptResult => {
        this.deps.logger.error({ err, delivery: c.id }, 'event delivery attempt failed unexpectedly');
        return this.failed(c, 0, 'internal error while sending', undefined);
      })
      .then((result) => {
        this.results.push(result);
        this.inFlight.delete(c.id);
        this.wake();
      });
    this.inFlight.set(c.id, { abort, done });
  }

  private async attempt(c: ClaimedDelivery, signal: AbortSignal): Promise<AttemptResult> {
    let url: URL;
    try {
      url = new URL(c.sink);
    } catch {
      return this.result(c, 'dead', 0, 'the sink is not a valid URL');
    }
    const secret = openSigningSecret(this.deps.secrets, c.subscription_uid, c.signing_secret);
    if (secret === 'unreadable') return this.failed(c, 0, "the subscription's signing secret does not open with this server's secrets key", undefined);
    let message: { headers: Record<string, string>; body: Buffer };
    try {
      message = await deliveryMessage(this.message, c, c.subscription_group, secret, new Date());
    } catch (err) {
      // Not the error's text: it could quote what it failed on.
      this.deps.logger.warn({ delivery: c.id, event: c.event_id, reason: (err as Error).name }, 'event delivery: the event cannot be sent');
      return this.result(c, 'dead', 0, 'the event or the signing secret cannot be encoded as a signed CloudEvent');
    }
    try {
      const answer = await postToSink({ url, headers: message.headers, body: message.body, allowInsecure: this.deps.events.allowInsecureSinks, signal });
      if (answer.status >= 200 && answer.status < 300) return this.result(c, 'delivered', answer.status, '');
      const error =
        answer.status >= 300 && answer.status < 400 ? `the sink answered ${answer.status}: redirects are not followed` : `the sink answered ${answer.status}`;
      return this.failed(c, answer.status, error, answer.retryAfter);
    } catch (err) {
      if (signal.aborted) return this.result(c, 'retry', 0, 'stopped before the sink answered (Berth shut down)', Date.now());
      if (err instanceof SinkFailure) return err.refused ? this.result(c, 'dead', 0, err.reason) : this.failed(c, 0, err.reason, undefined);
      throw err;
    }
  }

  /** A failed attempt: retried after backoff (or Retry-After), or dead once the retry window is over. */
  private failed(c: ClaimedDelivery, statusCode: number, error: string, retryAfter: string | undefined): AttemptResult {
    const now = Date.now();
    const next = nextAttempt({ attempts: c.attempts, retryAfter, now, retryFrom: Date.parse(c.retry_from), maxAgeMs: this.deps.events.maxAgeMs });
    if (next === 'dead') return this.result(c, 'dead', statusCode, `${error}; gave up after retrying for ${Math.round(this.deps.events.maxAgeMs / 1000)} s`);
    return this.result(c, 'retry', statusCode, error, next);
  }

  private result(c: ClaimedDelivery, outcome: AttemptResult['outcome'], statusCode: number, error: string, nextAttemptAt?: number): AttemptResult {
    return {
      id: c.id,
      lease_owner: c.lease_owner,
      subscription_uid: c.subscription_uid,
      subject: c.subject,
      outbox_id: c.outbox_id,
      outcome,
      statusCode,
      error,
      nextAttempt: nextAttemptAt,
    };
  }
}

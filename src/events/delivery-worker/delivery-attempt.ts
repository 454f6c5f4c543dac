// One attempt of one claimed delivery, and what it came to: delivered (any
// 2xx), retried (after backoff or Retry-After; a 3xx, another status, no
// connection, a timeout), or dead (the retry window is over, or the sink or
// the event can never be sent: a refused address, a malformed URL).
import type { KeyObject } from 'node:crypto';
import type { Logger } from 'pino';
import type { ClaimedDelivery } from './claim.js';
import { deliveryMessage, type DeliveryMessage, type MessageContext } from './delivery-message.js';
import type { AttemptResult } from './results.js';
import { nextAttempt } from './retry-schedule.js';
import { subscriptionSigningSecret } from '../subscriptions/signing-secret.js';
import { postToSink, SinkFailure } from './sink-request.js';

export interface AttemptContext {
  message: MessageContext;
  /** The operator's secrets key, which opens sealed signing secrets. */
  secrets?: KeyObject;
  /** --allow-insecure-sinks. */
  allowInsecure: boolean;
  /** --event-max-age. */
  maxAgeMs: number;
  logger: Logger;
}

function result(c: ClaimedDelivery, outcome: AttemptResult['outcome'], statusCode: number, error: string, nextAttemptAt?: number): AttemptResult {
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

/** A failed attempt: retried after backoff (or Retry-After), or dead once the retry window is over. */
export function failedAttempt(ctx: AttemptContext, c: ClaimedDelivery, statusCode: number, error: string, retryAfter?: string): AttemptResult {
  const now = Date.now();
  const next = nextAttempt({ attempts: c.attempts, retryAfter, now, retryFrom: Date.parse(c.retry_from), maxAgeMs: ctx.maxAgeMs });
  if (next === 'dead') return result(c, 'dead', statusCode, `${error}; gave up after retrying for ${Math.round(ctx.maxAgeMs / 1000)} s`);
  return result(c, 'retry', statusCode, error, next);
}

/** Sends `c` once; `signal` aborts it (the worker is stopping: it is retried at once, later). */
export async function attemptDelivery(ctx: AttemptContext, c: ClaimedDelivery, signal: AbortSignal): Promise<AttemptResult> {
  let url: URL;
  try {
    url = new URL(c.sink);
  } catch {
    return result(c, 'dead', 0, 'the sink is not a valid URL');
  }
  // Sealed and this server lacks the key that opens it: failed and retried (the operator may restart Berth with the right key).
  const opened = subscriptionSigningSecret({ uid: c.subscription_uid, signing_secret: c.signing_secret }, ctx.secrets);
  if (opened === undefined) return failedAttempt(ctx, c, 0, "the subscription's signing secret does not open with this server's secrets key");
  const secret = opened === '' ? undefined : opened;
  let message: DeliveryMessage;
  try {
    message = await deliveryMessage(ctx.message, c, c.subscription_group, secret, new Date());
  } catch (err) {
    // Not the error's text: it could quote what it failed on.
    ctx.logger.warn({ delivery: c.id, event: c.event_id, reason: (err as Error).name }, 'event delivery: the event cannot be sent');
    return result(c, 'dead', 0, 'the event or the signing secret cannot be encoded as a signed CloudEvent');
  }
  try {
    const answer = await postToSink({ url, headers: message.headers, body: message.body, allowInsecure: ctx.allowInsecure, signal });
    if (answer.status >= 200 && answer.status < 300) return result(c, 'delivered', answer.status, '');
    const error =
      answer.status >= 300 && answer.status < 400 ? `the sink answered ${answer.status}: redirects are not followed` : `the sink answered ${answer.status}`;
    return failedAttempt(ctx, c, answer.status, error, answer.retryAfter);
  } catch (err) {
    if (signal.aborted) return result(c, 'retry', 0, 'stopped before the sink answered (Berth shut down)', Date.now());
    if (err instanceof SinkFailure) return err.refused ? result(c, 'dead', 0, err.reason) : failedAttempt(ctx, c, 0, err.reason);
    throw err;
  }
}

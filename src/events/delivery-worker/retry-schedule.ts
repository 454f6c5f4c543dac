// When a failed delivery is tried again: exponential backoff from 1 s,
// doubling per attempt up to 10 min, with jitter (half the delay fixed, half
// random) so sinks that fail together are not retried in step; a Retry-After
// from the sink (seconds or an HTTP date) replaces it, bounded to 1 s – 1 h.
// Retrying stops --event-max-age after the delivery started: the last try is
// made at that moment, and its failure makes the delivery dead.

export const BACKOFF_BASE_MS = 1_000;
export const BACKOFF_CAP_MS = 10 * 60_000;
export const RETRY_AFTER_CAP_MS = 3_600_000;

/** The backoff after the `attempts`-th failed attempt (1 for the first). */
export function backoffMs(attempts: number, random: () => number = Math.random): number {
  const exp = Math.min(BACKOFF_CAP_MS, BACKOFF_BASE_MS * 2 ** Math.min(30, Math.max(0, attempts - 1)));
  return Math.round(exp / 2 + (random() * exp) / 2);
}

/** The delay a Retry-After header asks for, bounded; undefined when it is absent or not understood. */
export function retryAfterMs(header: string | undefined, now: number): number | undefined {
  if (header === undefined) return undefined;
  const text = header.trim();
  let ms: number;
  if (/^\d{1,10}$/.test(text)) ms = Number(text) * 1000;
  else {
    const at = Date.parse(text);
    if (Number.isNaN(at) || !/[a-z]/i.test(text)) return undefined; // an HTTP date names its day and month
    ms = at - now;
  }
  return Math.min(RETRY_AFTER_CAP_MS, Math.max(BACKOFF_BASE_MS, ms)); // never sooner than 1 s: a sink saying 0 is not hammered
}

/** The next attempt's time, or 'dead' when the retry window (from `retryFrom`, `maxAgeMs` long) is over. */
export function nextAttempt(opts: { attempts: number; retryAfter?: string; now: number; retryFrom: number; maxAgeMs: number }): number | 'dead' {
  const deadline = opts.retryFrom + opts.maxAgeMs;
  if (opts.now >= deadline) return 'dead';
  const delay = retryAfterMs(opts.retryAfter, opts.now) ?? backoffMs(opts.attempts);
  return Math.min(opts.now + delay, deadline);
}

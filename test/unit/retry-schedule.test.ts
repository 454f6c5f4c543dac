// When a failed delivery is tried again: backoff doubling from 1 s to 10 min
// with half of it random, Retry-After in seconds or as an HTTP date (bounded
// to 1 s – 1 h), and no retry after the --event-max-age window.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { backoffMs, nextAttempt, retryAfterMs } from '../../src/events/delivery-worker/retry-schedule.js';

describe('retry schedule', () => {
  it('doubles the backoff per attempt up to 10 minutes, half of it jitter', () => {
    assert.equal(
      backoffMs(1, () => 0),
      500,
    );
    assert.equal(
      backoffMs(1, () => 1),
      1_000,
    );
    assert.equal(
      backoffMs(2, () => 0),
      1_000,
    );
    assert.equal(
      backoffMs(4, () => 1),
      8_000,
    );
    assert.equal(
      backoffMs(30, () => 1),
      600_000,
    );
    assert.equal(
      backoffMs(10_000, () => 0),
      300_000,
    );
  });

  it('reads Retry-After as seconds or an HTTP date, bounded', () => {
    const now = Date.parse('2030-01-01T00:00:00Z');
    assert.equal(retryAfterMs('7', now), 7_000);
    assert.equal(retryAfterMs('0', now), 1_000, 'never sooner than a second');
    assert.equal(retryAfterMs('999999', now), 3_600_000, 'at most an hour');
    assert.equal(retryAfterMs('Tue, 01 Jan 2030 00:00:30 GMT', now), 30_000);
    assert.equal(retryAfterMs('Mon, 31 Dec 2029 00:00:00 GMT', now), 1_000, 'a date in the past: a second');
    assert.equal(retryAfterMs('soon', now), undefined);
    assert.equal(retryAfterMs('-5', now), undefined);
    assert.equal(retryAfterMs('2030', now), 2_030_000);
    assert.equal(retryAfterMs(undefined, now), undefined);
  });

  it('stops at the end of the retry window, trying once more at its very end', () => {
    const from = 1_000_000;
    const maxAgeMs = 60_000;
    assert.equal(nextAttempt({ attempts: 1, retryAfter: '5', now: from + 1_000, retryFrom: from, maxAgeMs }), from + 6_000);
    assert.equal(nextAttempt({ attempts: 1, retryAfter: '3600', now: from + 1_000, retryFrom: from, maxAgeMs }), from + maxAgeMs);
    assert.equal(nextAttempt({ attempts: 20, now: from + maxAgeMs, retryFrom: from, maxAgeMs }), 'dead');
  });
});

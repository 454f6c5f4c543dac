// Failed deliveries are retried with the same ce-id: after backoff that grows
// (seen in the delivery log's attempts, last status code and error), after a
// timeout when the sink is slow, after the time a Retry-After asks for; a
// redirect is a failed attempt and is never followed. While one event of a
// subject is retried, later events of that subject wait (order per
// subscription and subject), and other subjects do not.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { rest } from '../harness/api-client.js';
import { useBerth, type Berth } from '../harness/berth-process.js';
import { EventReceiver, type Received } from '../harness/event-receiver.js';
import { childUid, EventSource, recordedDelivery, subscribe } from '../harness/event-setup.js';

// Lower bounds only: a retry must not come sooner than this (jitter leaves half the backoff fixed).
const SLACK_MS = 60;

describe('delivery retries', () => {
  let berth: Berth;
  let token: string;
  let receiver: EventReceiver;
  let events: EventSource;
  useBerth(
    (b, t) => {
      berth = b;
      token = t;
    },
    { extraArgs: ['--allow-insecure-sinks'] },
  );
  before(async () => {
    receiver = await EventReceiver.start(berth.url);
    events = await EventSource.open(berth);
  });
  after(async () => {
    await events?.close();
    await receiver?.close();
  });

  async function log(sub: string) {
    const r = await rest(berth.url, 'GET', `/events/v2/subscriptions/${sub}/deliveries`, { token });
    assert.equal(r.status, 200, r.text);
    return r.json.deliveries as Array<Record<string, unknown>>;
  }
  const recorded = (sub: string) => recordedDelivery(berth, token, sub);
  const attemptsOf = (sink: string, ceId: string) => receiver.of(sink).filter((r) => r.ceId === ceId);
  /** A group of its own per test, so one test's subscriptions never see another's events. */
  async function freshGroup(): Promise<string> {
    const r = await rest(berth.url, 'POST', `/iam/v2/groups/${berth.orgUid}`, { token, body: { name: `g-${Math.random().toString(16).slice(2, 10)}` } });
    assert.equal(r.status, 200, r.text);
    return r.json.uid as string;
  }

  it('retries a failing sink with growing backoff, then records the delivery', async () => {
    const g = await freshGroup();
    const sub = await subscribe(berth, g, receiver.sink('flaky', { group: g, answer: (_e, n) => ({ status: n <= 3 ? 500 : 200 }) }));
    const ceId = await events.emit({ group: g, subject: childUid(g) });
    await receiver.waitFor('a failed attempt', () => attemptsOf('flaky', ceId).length >= 1);
    // Between attempts the log says what happened and when the next one is due.
    let pending: Record<string, unknown> | undefined;
    for (let i = 0; i < 100 && !pending; i++) {
      pending = (await log(sub)).find((d) => d.status === 'PENDING' && d.lastStatusCode === 500);
      if (!pending) await new Promise((r) => setTimeout(r, 20));
    }
    assert.ok(pending, 'the log shows the failed attempt');
    assert.equal(pending.lastError, 'the sink answered 500');
    assert.ok(Date.parse(String(pending.nextAttemptTime)) > Date.parse(String(pending.createTime)));

    await receiver.waitFor('the delivery', () => receiver.deliveredTo('flaky').length === 1, 30_000);
    assert.deepEqual(receiver.problems(), []);
    const tries = attemptsOf('flaky', ceId);
    assert.deepEqual(
      tries.map((t) => t.status),
      [500, 500, 500, 200],
    );
    // Backoff from 1 s doubling, half of it fixed: at least 0.5 s, 1 s, 2 s between attempts.
    for (let k = 1; k < tries.length; k++) {
      const gap = tries[k].at - tries[k - 1].at;
      assert.ok(gap >= 500 * 2 ** (k - 1) - SLACK_MS, `attempt ${k + 1} came ${gap} ms after the one before`);
    }
    const done = await recorded(sub);
    assert.equal(done?.status, 'DELIVERED');
    assert.equal(done?.attempts, 4);
    assert.equal(done?.lastStatusCode, 200);
    assert.equal(done?.lastError, '');
  });

  it('gives up on a sink that does not answer in 10 s and retries it', async () => {
    const g = await freshGroup();
    const sub = await subscribe(
      berth,
      g,
      receiver.sink('slow', { group: g, answer: (_e, n) => (n === 1 ? { status: 200, delayMs: 12_000 } : { status: 200 }) }),
    );
    const ceId = await events.emit({ group: g, subject: childUid(g) });
    await receiver.waitFor('the retry', () => attemptsOf('slow', ceId).length === 2, 40_000);
    const [first, second] = attemptsOf('slow', ceId);
    assert.ok(second.at - first.at >= 10_000 - SLACK_MS, 'the first attempt was given 10 s');
    const entry = await recorded(sub);
    assert.equal(entry?.status, 'DELIVERED');
    assert.equal(entry?.attempts, 2);
  });

  it('waits as long as Retry-After asks, in seconds or as a date', async () => {
    const g = await freshGroup();
    const inSeconds = await subscribe(
      berth,
      g,
      receiver.sink('retry-after-s', { group: g, answer: (_e, n) => (n === 1 ? { status: 503, headers: { 'retry-after': '3' } } : { status: 200 }) }),
    );
    const asDate = await subscribe(
      berth,
      g,
      receiver.sink('retry-after-date', {
        group: g,
        answer: (_e, n) => (n === 1 ? { status: 429, headers: { 'retry-after': new Date(Date.now() + 5_000).toUTCString() } } : { status: 200 }),
      }),
    );
    const ceId = await events.emit({ group: g, subject: childUid(g) });
    await receiver.waitFor('both retries', () => receiver.deliveredTo('retry-after-s').length === 1 && receiver.deliveredTo('retry-after-date').length === 1);
    const [s1, s2] = attemptsOf('retry-after-s', ceId);
    assert.ok(s2.at - s1.at >= 3_000 - SLACK_MS, `Retry-After: 3 waited ${s2.at - s1.at} ms`);
    const [d1, d2] = attemptsOf('retry-after-date', ceId);
    // An HTTP date has whole seconds, and is read a moment after it was written: well over 3 s of the 5 asked.
    assert.ok(d2.at - d1.at >= 3_000 - SLACK_MS, `Retry-After as a date waited ${d2.at - d1.at} ms`);
    for (const sub of [inSeconds, asDate]) assert.equal((await recorded(sub))?.status, 'DELIVERED');
  });

  it('never follows a redirect: a 3xx is a failed attempt', async () => {
    const g = await freshGroup();
    const target = receiver.sink('redirect-target', { group: g });
    const sub = await subscribe(
      berth,
      g,
      receiver.sink('redirecting', { group: g, answer: (_e, n) => (n === 1 ? { status: 307, headers: { location: target } } : { status: 200 }) }),
    );
    const ceId = await events.emit({ group: g, subject: childUid(g) });
    await receiver.waitFor('the first attempt', () => attemptsOf('redirecting', ceId).length === 1);
    let entry: Record<string, unknown> | undefined;
    for (let i = 0; i < 100 && entry?.lastStatusCode !== 307; i++) {
      [entry] = await log(sub);
      if (entry?.lastStatusCode !== 307) await new Promise((r) => setTimeout(r, 20));
    }
    assert.equal(entry?.lastStatusCode, 307);
    assert.match(String(entry?.lastError), /redirects are not followed/);
    await receiver.waitFor('the retry', () => receiver.deliveredTo('redirecting').length === 1);
    assert.deepEqual(receiver.of('redirect-target'), [], 'the Location was never requested');
  });

  it('keeps the order of a subject while one of its events is retried; other subjects go on', async () => {
    const g = await freshGroup();
    const subject = childUid(g);
    const other = childUid(g);
    // The first event of the subject to arrive fails twice.
    let head: string | undefined;
    await subscribe(
      berth,
      g,
      receiver.sink('ordered', {
        group: g,
        answer: (e, n) => {
          if (e.subject === subject) head ??= e.ceId;
          return { status: e.ceId === head && n <= 2 ? 500 : 200 };
        },
      }),
    );
    const first = await events.emit({ group: g, subject });
    const second = await events.emit({ group: g, subject });
    const third = await events.emit({ group: g, subject });
    const elsewhere = await events.emit({ group: g, subject: other });
    await receiver.waitFor('the subject', () => receiver.deliveredTo('ordered').filter((r) => r.subject === subject).length === 3, 30_000);
    await receiver.waitFor('the other subject', () => receiver.deliveredTo('ordered').some((r) => r.ceId === elsewhere));
    assert.deepEqual(receiver.problems(), []);
    const ofSubject = receiver.of('ordered').filter((r: Received) => r.subject === subject);
    assert.deepEqual(
      ofSubject.map((r) => [r.ceId, r.status]),
      [
        [first, 500],
        [first, 500],
        [first, 200],
        [second, 200],
        [third, 200],
      ],
    );
    const firstDelivered = ofSubject[2].at;
    const otherDelivered = receiver.deliveredTo('ordered').find((r) => r.ceId === elsewhere)!.at;
    assert.ok(otherDelivered < firstDelivered, 'the other subject was not held up by the retries');
  });
});

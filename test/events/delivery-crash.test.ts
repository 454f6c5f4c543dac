// Nothing acknowledged is lost: events committed while the sink is down,
// some of them with an attempt in flight, reach the sink after Berth is
// killed with SIGKILL and started again on the same data, each with its one
// ce-id (a delivery that may have been sent twice carries the same id). And
// two instances on one database deliver every event exactly once in normal
// operation (on PostgreSQL they share the work; on SQLite one holds the
// worker lease).
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { dropDatabase, freshDatabase, startBerth, usingPostgres, type Berth } from '../harness/berth-process.js';
import { EventReceiver } from '../harness/event-receiver.js';
import { childUid, EventSource, subscribe } from '../harness/event-setup.js';

const ARGS = ['--allow-insecure-sinks'];

describe('event delivery across a crash', () => {
  const cleanup: Array<() => Promise<unknown>> = [];
  after(async () => {
    for (const c of cleanup.reverse()) await c();
  });

  it('delivers what was committed before a SIGKILL after the restart, one ce-id per event', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'berth-crash-'));
    const databaseUrl = await freshDatabase();
    cleanup.push(() => dropDatabase(databaseUrl));
    let berth: Berth = await startBerth({ dataDir, databaseUrl, extraArgs: ARGS });
    cleanup.push(() => berth.stop());
    const receiver = await EventReceiver.start(berth.url);
    cleanup.push(() => receiver.close());
    let up = false;
    // While down, the sink holds each request a moment before failing it, so attempts are in flight when Berth dies.
    const sink = receiver.sink('crash', { group: berth.orgUid, answer: () => (up ? { status: 200 } : { status: 503, delayMs: 1_000 }) });
    await subscribe(berth, berth.orgUid, sink);
    const events = await EventSource.open(berth);
    const emitted = new Map<string, string>(); // ce-id → subject
    const emit = async () => {
      const subject = childUid(berth.orgUid);
      emitted.set(await events.emit({ group: berth.orgUid, subject }), subject);
    };
    for (let i = 0; i < 10; i++) await emit();
    await receiver.waitFor('attempts of the first events', () => receiver.received.length >= 3);
    for (let i = 0; i < 10; i++) await emit();
    await events.close();
    await receiver.waitFor('an attempt in flight', () => receiver.received.some((r) => r.status === 503));
    assert.equal(await berth.stop('SIGKILL'), null, 'killed, not stopped');

    berth = await startBerth({ dataDir, databaseUrl, extraArgs: ARGS });
    receiver.acceptIssuers([berth.url]);
    up = true;
    // Claims of the killed process run out (30 s) before their rows go again.
    await receiver.waitFor('every event', () => [...emitted.keys()].every((id) => receiver.deliveredTo('crash').some((r) => r.ceId === id)), 90_000);
    const late = receiver.received.filter((r) => r.status === 200);
    assert.deepEqual(
      late.flatMap((r) => r.problems),
      [],
    );
    for (const r of receiver.received) {
      assert.ok(emitted.has(r.ceId), `${r.ceId} is one of the events`);
      assert.equal(r.subject, emitted.get(r.ceId), 'each event travels under its own ce-id only');
    }
    for (const [id, subject] of emitted) {
      assert.deepEqual(
        new Set(
          receiver
            .of('crash')
            .filter((r) => r.subject === subject)
            .map((r) => r.ceId),
        ),
        new Set([id]),
      );
    }
  });

  it('delivers every event exactly once with two instances on one database', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'berth-two-'));
    const databaseUrl = await freshDatabase();
    cleanup.push(() => dropDatabase(databaseUrl));
    const a = await startBerth({ dataDir, databaseUrl, extraArgs: ARGS });
    cleanup.push(() => a.stop());
    // One data directory: only the first serves the registry (a second would refuse to start on it).
    const b = await startBerth({ dataDir, databaseUrl, extraArgs: [...ARGS, '--registry-listen', 'off'] });
    cleanup.push(() => b.stop());
    const receiver = await EventReceiver.start(a.url);
    cleanup.push(() => receiver.close());
    receiver.acceptIssuers([a.url, b.url]);
    await subscribe(a, a.orgUid, receiver.sink('shared', { group: a.orgUid }));
    const events = await EventSource.open(a);
    const emitted: string[] = [];
    for (let i = 0; i < 300; i++) emitted.push(await events.emit({ group: a.orgUid, subject: childUid(a.orgUid) }));
    await events.close();
    await receiver.waitFor('every event', () => new Set(receiver.received.map((r) => r.ceId)).size === emitted.length, 60_000);
    // Anything late would show up by now: wait a little longer than a poll and a claim.
    await new Promise((r) => setTimeout(r, 1_000));
    assert.deepEqual(receiver.problems(), []);
    const counts = new Map<string, number>();
    for (const r of receiver.received) counts.set(r.ceId, (counts.get(r.ceId) ?? 0) + 1);
    assert.deepEqual(new Set(counts.keys()), new Set(emitted));
    assert.deepEqual(
      [...counts.entries()].filter(([, n]) => n !== 1),
      [],
      'no event was delivered twice',
    );
    if (usingPostgres()) {
      const issuers = new Set(receiver.received.map((r) => r.claims?.iss));
      assert.deepEqual(issuers, new Set([a.url, b.url]), 'both instances delivered');
    }
  });
});

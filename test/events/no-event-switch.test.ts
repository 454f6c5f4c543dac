// No environment variable makes a server drop its events: the benchmark's old
// BERTH_BENCH_WITHOUT_EVENTS=1 made emitEvent write nothing, so a production
// process that inherited it lost every event silently. A benchmark that wants
// writes without deliveries starts a server with no subscriptions.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { rest } from '../harness/api-client.js';
import { useBerth, type Berth } from '../harness/berth-process.js';
import { EventReceiver } from '../harness/event-receiver.js';

describe('events without a benchmark switch', () => {
  let berth: Berth;
  let token: string;
  let receiver: EventReceiver;
  useBerth(
    (b, t) => {
      berth = b;
      token = t;
    },
    { extraArgs: ['--allow-insecure-sinks'], env: { BERTH_BENCH_WITHOUT_EVENTS: '1' } },
  );
  before(async () => {
    receiver = await EventReceiver.start(berth.url);
  });
  after(async () => {
    await receiver?.close();
  });

  it('delivers events even when BERTH_BENCH_WITHOUT_EVENTS=1 is in the environment', async () => {
    const org = berth.orgUid;
    const sub = await rest(berth.url, 'POST', `/events/v2/subscriptions/${org}`, { token, body: { sink: receiver.sink('org', { group: org }) } });
    assert.equal(sub.status, 200, sub.text);
    const group = await rest(berth.url, 'POST', `/iam/v2/groups/${org}`, { token, body: { name: 'after-the-switch' } });
    assert.equal(group.status, 200, group.text);
    await receiver.waitFor('the group.created event', () => receiver.deliveredTo('org').some((r) => r.subject === group.json.uid), 10_000);
  });
});

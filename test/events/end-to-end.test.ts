// Events end to end through the public surface only: a subscription created
// with the API on an organization, changes made with ordinary RPCs in a
// folder below it, a signed subscription; the receiver verifies every
// delivery (token through Berth's JWKS, body digest, Standard Webhooks
// signature) and gets each change's event with the change's body, and the
// delivery log shows them delivered. A subscription in another organization
// gets none of it.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { rest } from '../harness/api-client.js';
import { useBerth, type Berth } from '../harness/berth-process.js';
import { EventReceiver } from '../harness/event-receiver.js';
import { newSigningSecret } from '../harness/event-setup.js';

describe('events end to end (API only)', () => {
  let berth: Berth;
  let token: string;
  let receiver: EventReceiver;
  useBerth(
    (b, t) => {
      berth = b;
      token = t;
    },
    { extraArgs: ['--allow-insecure-sinks', '--allow-org-creation', 'anyone'] },
  );
  before(async () => {
    receiver = await EventReceiver.start(berth.url);
  });
  after(async () => {
    await receiver?.close();
  });

  const call = async (method: string, path: string, body?: unknown) => {
    const r = await rest(berth.url, method, path, { token, body });
    assert.equal(r.status, 200, `${method} ${path}: ${r.text}`);
    return r.json;
  };

  it('delivers the events of changes in a folder to a signed subscription on its organization', async () => {
    const secret = newSigningSecret();
    const org = berth.orgUid;
    const sub = await call('POST', `/events/v2/subscriptions/${org}`, { sink: receiver.sink('org', { group: org, secret }), signingSecret: secret });
    assert.equal(sub.signed, true);
    const other = await call('POST', '/iam/v2/groups', { name: `other-${randomBytes(4).toString('hex')}.example` });
    await call('POST', `/events/v2/subscriptions/${other.uid}`, { sink: receiver.sink('other-org', { group: other.uid as string }) });

    const folder = await call('POST', `/iam/v2/groups/${org}`, { name: `team-${randomBytes(4).toString('hex')}` });
    const renamed = await call('PATCH', `/iam/v2/groups/${folder.uid}`, { description: 'the team', updateMask: 'description' });
    const repo = await call('POST', `/registry/v2/repos/${folder.uid}`, { name: 'app' });
    await call('DELETE', `/registry/v2/repos/${repo.uid}`);

    const want = [
      ['dev.berth.api.iam.group.created.v1', folder.uid],
      ['dev.berth.api.iam.group.updated.v1', folder.uid],
      ['dev.berth.api.platform.registry.repo.created.v1', repo.uid],
      ['dev.berth.api.platform.registry.repo.deleted.v1', repo.uid],
    ];
    const ofInterest = () => receiver.deliveredTo('org').filter((r) => want.some(([, subject]) => r.subject === subject));
    await receiver.waitFor('the four events', () => ofInterest().length >= want.length);
    assert.deepEqual(receiver.problems(), [], 'every delivery verifies: token, digest and signature');
    const got = ofInterest();
    for (const [type, subject] of want) {
      const e = got.filter((r) => r.type === type && r.subject === subject);
      assert.equal(e.length, 1, `one ${type} for ${subject}`);
      assert.deepEqual(e[0].data.actor, { subject: berth.ownerIdentity });
      assert.equal(e[0].headers['ce-group'], folder.uid, 'the folder: subscriptions on it and on its organization get it');
      assert.ok(e[0].headers['webhook-signature'], 'signed with the subscription secret');
    }
    assert.equal(got.find((r) => r.type.endsWith('group.updated.v1'))?.data.body.description, renamed.description);
    assert.equal(got.find((r) => r.type.endsWith('repo.created.v1'))?.data.body.name, 'app');
    assert.deepEqual(got.find((r) => r.type.endsWith('repo.deleted.v1'))?.data.body, { uid: repo.uid });

    // The worker records a result after the sink has answered, so the log may
    // lag the receiver by that write.
    const logged = async () => {
      const log = await call('GET', `/events/v2/subscriptions/${sub.uid}/deliveries?page_size=100`);
      return (log.deliveries as Array<Record<string, unknown>>).filter((d) => got.some((r) => r.ceId === d.eventId));
    };
    let rows = await logged();
    for (const until = Date.now() + 30_000; rows.some((d) => d.status !== 'DELIVERED') && Date.now() < until; rows = await logged()) {
      await new Promise((r) => setTimeout(r, 100));
    }
    assert.equal(rows.length, want.length);
    assert.deepEqual(
      rows.map((d) => [d.status, d.attempts, d.lastStatusCode]),
      want.map(() => ['DELIVERED', 1, 200]),
    );
    assert.deepEqual(
      receiver.deliveredTo('other-org').filter((r) => r.headers['ce-group'] !== other.uid),
      [],
      'another organization receives only its own events',
    );
  });
});

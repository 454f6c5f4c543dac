// Event delivery as a receiver sees it: every customer event reaches every
// subscription on its group and on each ancestor, as a CloudEvent in binary
// mode whose token verifies through Berth's JWKS (iss, aud, sub
// webhook:<subscription's group>, webhook.digest of the body), signed with
// Standard Webhooks when the subscription has a secret. Subscriptions on a
// sibling group or in another organization get nothing; internal events go
// nowhere, and an event no subscription can receive leaves the worker nothing to do.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { rest } from '../harness/api-client.js';
import { useBerth, type Berth } from '../harness/berth-process.js';
import { sqlQuery } from '../harness/database.js';
import { EventReceiver } from '../harness/event-receiver.js';
import { childUid, EventSource, newSigningSecret, recordedDelivery, subscribe } from '../harness/event-setup.js';

const SECRETS_KEY = randomBytes(32).toString('base64');
const keyFile = join(mkdtempSync(join(tmpdir(), 'berth-events-key-')), 'secrets.key');
writeFileSync(keyFile, SECRETS_KEY, { mode: 0o600 });

describe('event delivery', () => {
  let berth: Berth;
  let token: string;
  let receiver: EventReceiver;
  let events: EventSource;
  useBerth(
    (b, t) => {
      berth = b;
      token = t;
    },
    { extraArgs: ['--allow-insecure-sinks', '--secrets-key-file', keyFile] },
  );
  before(async () => {
    receiver = await EventReceiver.start(berth.url);
    events = await EventSource.open(berth);
  });
  after(async () => {
    await events?.close();
    await receiver?.close();
  });

  const group = async (parent: string, name: string) => {
    const r = await rest(berth.url, 'POST', `/iam/v2/groups/${parent}`, { token, body: { name } });
    assert.equal(r.status, 200, r.text);
    return r.json.uid as string;
  };

  it('delivers an event as a binary-mode CloudEvent with a verifiable token', async () => {
    const g = await group(berth.orgUid, `g-${randomBytes(4).toString('hex')}`);
    const sub = await subscribe(berth, g, receiver.sink('plain', { group: g }));
    const subject = childUid(g);
    const ceId = await events.emit({
      group: g,
      subject,
      actor: berth.ownerIdentity,
      body: { uid: subject, name: 'team-x' },
      extensions: { identityprovider: 'idp-1' },
    });
    await receiver.waitFor('the delivery', () => receiver.deliveredTo('plain').length === 1);
    assert.deepEqual(receiver.problems(), []);
    const got = receiver.deliveredTo('plain')[0];
    assert.equal(got.ceId, ceId);
    assert.match(ceId, /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/, 'a time-ordered UUID (version 7)');
    assert.equal(got.type, 'dev.berth.api.iam.group.updated.v1');
    assert.equal(got.source, berth.url);
    assert.equal(got.subject, subject);
    assert.equal(got.headers['ce-specversion'], '1.0');
    assert.equal(got.headers['ce-group'], g);
    assert.equal(got.headers['ce-audience'], 'customer');
    assert.equal(got.headers['ce-bodytype'], 'berth.iam.v2.Group');
    assert.equal(got.headers['ce-identityprovider'], 'idp-1');
    const [stored] = await sqlQuery(berth, 'select create_time from event_outbox where event_id = $1', [ceId]);
    assert.equal(got.headers['ce-time'], stored.create_time, 'ce-time is the time the event was written');
    assert.deepEqual(got.data, { actor: { subject: berth.ownerIdentity }, body: { uid: subject, name: 'team-x' } });
    assert.equal(got.claims?.sub, `webhook:${g}`);
    assert.ok(Number(got.claims?.exp) - Number(got.claims?.iat) <= 300, 'the token is short-lived');
    assert.equal(got.headers['webhook-signature'], undefined);

    const d = (await recordedDelivery(berth, token, sub)) as Record<string, unknown>;
    const log = await rest(berth.url, 'GET', `/events/v2/subscriptions/${sub}/deliveries`, { token });
    assert.equal(log.status, 200, log.text);
    assert.equal(log.json.deliveries.length, 1);
    assert.equal(d.status, 'DELIVERED');
    assert.equal(d.eventId, ceId);
    assert.equal(d.eventType, 'dev.berth.api.iam.group.updated.v1');
    assert.equal(d.eventSubject, subject);
    assert.equal(d.attempts, 1);
    assert.equal(d.lastStatusCode, 200);
    assert.equal(d.subscription, sub);
    assert.ok(d.deliveredTime);
  });

  it('signs with Standard Webhooks when the subscription has a secret', async () => {
    const g = await group(berth.orgUid, `g-${randomBytes(4).toString('hex')}`);
    const secret = newSigningSecret();
    await subscribe(berth, g, receiver.sink('signed', { group: g, secret }), { signingSecret: secret, secretsKey: SECRETS_KEY });
    const ceId = await events.emit({ group: g, subject: childUid(g) });
    await receiver.waitFor('the signed delivery', () => receiver.deliveredTo('signed').some((r) => r.ceId === ceId));
    assert.deepEqual(receiver.problems(), []);
    const got = receiver.deliveredTo('signed').find((r) => r.ceId === ceId);
    assert.equal(got?.headers['webhook-id'], ceId);
    assert.match(String(got?.headers['webhook-signature']), /^v1,/);
  });

  it('reaches subscriptions on the group and every ancestor, and none elsewhere', async () => {
    const team = await group(berth.orgUid, `team-${randomBytes(3).toString('hex')}`);
    const squad = await group(team, 'squad');
    const sibling = await group(berth.orgUid, `sibling-${randomBytes(3).toString('hex')}`);
    const otherOrg = await rest(berth.url, 'POST', '/iam/v2/groups', { token, body: { name: `other-${randomBytes(4).toString('hex')}` } });
    assert.equal(otherOrg.status, 200, otherOrg.text);
    const subs = {
      org: await subscribe(berth, berth.orgUid, receiver.sink('tree-org', { group: berth.orgUid })),
      team: await subscribe(berth, team, receiver.sink('tree-team', { group: team })),
      squad: await subscribe(berth, squad, receiver.sink('tree-squad', { group: squad })),
      sibling: await subscribe(berth, sibling, receiver.sink('tree-sibling', { group: sibling })),
      other: await subscribe(berth, otherOrg.json.uid, receiver.sink('tree-other', { group: otherOrg.json.uid })),
    };
    const inSquad = await events.emit({ group: squad, subject: childUid(squad) });
    const inTeam = await events.emit({ group: team, subject: childUid(team) });
    const inOrg = await events.emit({ group: berth.orgUid, subject: childUid(berth.orgUid) });
    const ids = (sink: string) => receiver.deliveredTo(sink).map((r) => r.ceId);
    await receiver.waitFor('the deliveries', () => ids('tree-org').includes(inOrg) && ids('tree-team').includes(inTeam) && ids('tree-squad').includes(inSquad));
    await receiver.waitFor('the rest', () => ids('tree-org').includes(inSquad) && ids('tree-org').includes(inTeam) && ids('tree-team').includes(inSquad));
    assert.deepEqual(receiver.problems(), []);
    assert.deepEqual(new Set(ids('tree-squad')), new Set([inSquad]));
    assert.deepEqual(new Set(ids('tree-team')), new Set([inSquad, inTeam]));
    assert.ok([inSquad, inTeam, inOrg].every((id) => ids('tree-org').includes(id)));
    // Every event is fanned out by now (each reached some subscription): the others have no delivery at all.
    for (const sub of [subs.sibling, subs.other]) {
      assert.deepEqual(await sqlQuery(berth, 'select id from event_deliveries where subscription_uid = $1', [sub]), []);
    }
    assert.deepEqual(receiver.of('tree-sibling'), []);
    assert.deepEqual(receiver.of('tree-other'), []);
  });

  it('writes an event no subscription can receive as fanned out already, and gives a later subscription the next one', async () => {
    const org = await rest(berth.url, 'POST', '/iam/v2/groups', { token, body: { name: `quiet-${randomBytes(4).toString('hex')}` } });
    assert.equal(org.status, 200, org.text);
    const team = await group(org.json.uid, 'team');
    const unheard = await events.emit({ group: team, subject: childUid(team) });
    const [row] = await sqlQuery(berth, 'select fanned_out from event_outbox where event_id = $1', [unheard]);
    assert.equal(Number(row.fanned_out), 1, 'no subscription on the group or an ancestor: nothing left for the worker');
    await subscribe(berth, org.json.uid, receiver.sink('late', { group: org.json.uid }));
    const heard = await events.emit({ group: team, subject: childUid(team) });
    await receiver.waitFor('the event after the subscription', () => receiver.deliveredTo('late').some((r) => r.ceId === heard));
    assert.deepEqual(receiver.problems(), []);
    assert.ok(!receiver.received.some((r) => r.ceId === unheard));
    const rows = await sqlQuery(berth, 'select d.id from event_deliveries d join event_outbox o on o.id = d.outbox_id where o.event_id = $1', [unheard]);
    assert.deepEqual(rows, []);
  });

  it('never delivers an internal event', async () => {
    const g = await group(berth.orgUid, `g-${randomBytes(4).toString('hex')}`);
    await subscribe(berth, g, receiver.sink('internal', { group: g }));
    const hidden = await events.emit({ group: g, subject: childUid(g), audience: 'internal' });
    const shown = await events.emit({ group: g, subject: childUid(g) });
    await receiver.waitFor('the customer event', () => receiver.deliveredTo('internal').some((r) => r.ceId === shown));
    assert.ok(!receiver.received.some((r) => r.ceId === hidden));
    const rows = await sqlQuery(berth, 'select d.id from event_deliveries d join event_outbox o on o.id = d.outbox_id where o.event_id = $1', [hidden]);
    assert.deepEqual(rows, []);
  });
});

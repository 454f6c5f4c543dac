// The delivery log (GET /events/v2/subscriptions/{uid}/deliveries) and
// redelivery (POST …/deliveries/{id}:redeliver), over REST and the CLI: a
// delivery that keeps failing is dead once --event-max-age has passed;
// redelivery sends it again with the same ce-id and a fresh attempt count;
// the log pages newest first and filters by status; permission is checked
// before existence; delivered rows are pruned after --event-retention. The
// log and redelivery answer the same over gRPC.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { Code, ConnectError } from '@connectrpc/connect';
import { Delivery_Status, SubscriptionsService } from '../../src/gen/berth/events/v2/subscriptions_pb.js';
import { grpcClient, identityWithRole, ownerToken, rest } from '../harness/api-client.js';
import { BerthCli } from '../harness/berth-cli.js';
import { dropDatabase, freshDatabase, startBerth, useBerth, type Berth } from '../harness/berth-process.js';
import { sqlQuery } from '../harness/database.js';
import { EventReceiver } from '../harness/event-receiver.js';
import { childUid, EventSource, subscribe } from '../harness/event-setup.js';

type Delivery = Record<string, unknown>;

describe('delivery log and redelivery', () => {
  let berth: Berth;
  let token: string;
  let receiver: EventReceiver;
  let events: EventSource;
  useBerth(
    (b, t) => {
      berth = b;
      token = t;
    },
    { extraArgs: ['--allow-insecure-sinks', '--event-max-age', '3s'] },
  );
  before(async () => {
    receiver = await EventReceiver.start(berth.url);
    events = await EventSource.open(berth);
  });
  after(async () => {
    await events?.close();
    await receiver?.close();
  });

  async function freshGroup(): Promise<string> {
    const r = await rest(berth.url, 'POST', `/iam/v2/groups/${berth.orgUid}`, { token, body: { name: `g-${randomBytes(4).toString('hex')}` } });
    assert.equal(r.status, 200, r.text);
    return r.json.uid as string;
  }
  async function list(sub: string, query = '', as = token) {
    return rest(berth.url, 'GET', `/events/v2/subscriptions/${sub}/deliveries${query}`, { token: as });
  }
  async function until(what: string, done: () => Promise<boolean>, timeoutMs = 30_000) {
    const end = Date.now() + timeoutMs;
    while (!(await done())) {
      if (Date.now() > end) throw new Error(`timed out waiting for ${what}; the server's last output:\n${berth.recentLogs() || '(none)'}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  }

  it('marks a delivery dead after --event-max-age and redelivers it with the same ce-id', async () => {
    const g = await freshGroup();
    let up = false;
    const sub = await subscribe(berth, g, receiver.sink('dead-then-up', { group: g, answer: () => ({ status: up ? 200 : 500 }) }));
    const ceId = await events.emit({ group: g, subject: childUid(g) });
    // The calls below write events of their own into g (identity and binding
    // created), delivered too: the assertions look at this event's delivery.
    const ours = async () => ((await list(sub)).json.deliveries as Delivery[] | undefined)?.find((d) => d.eventId === ceId);
    const oursReceived = () => receiver.deliveredTo('dead-then-up').filter((r) => r.ceId === ceId);
    let dead: Delivery | undefined;
    await until('the delivery to die', async () => {
      dead = await ours();
      return dead?.status === 'DEAD';
    });
    assert.ok(Number(dead?.attempts) >= 2, 'it was retried before giving up');
    assert.equal(dead?.lastStatusCode, 500);
    assert.match(String(dead?.lastError), /the sink answered 500; gave up after retrying for 3 s/);
    assert.equal(dead?.nextAttemptTime, undefined);

    const editor = await identityWithRole(berth.url, token, berth.orgUid, 'editor', g);
    up = true;
    const again = await rest(berth.url, 'POST', `/events/v2/subscriptions/${sub}/deliveries/${dead?.id}:redeliver`, { token: editor.token, body: {} });
    assert.equal(again.status, 200, again.text);
    assert.equal(again.json.status, 'PENDING');
    assert.equal(again.json.attempts, 0);
    assert.equal(again.json.eventId, ceId);
    await receiver.waitFor('the redelivery', () => oursReceived().length === 1);
    await until('the log to say delivered', async () => (await ours())?.status === 'DELIVERED');
    const done = (await ours())!;
    assert.equal(done.attempts, 1);
    assert.equal(done.lastStatusCode, 200);

    // A delivered one can be sent again too.
    const twice = await rest(berth.url, 'POST', `/events/v2/subscriptions/${sub}/deliveries/${done.id}:redeliver`, { token: editor.token, body: {} });
    assert.equal(twice.status, 200, twice.text);
    await receiver.waitFor('the second redelivery', () => oursReceived().length === 2);
    assert.deepEqual(receiver.problems(), []);
  });

  it('pages the log newest first, filters by status, and refuses a token of another query', async () => {
    const g = await freshGroup();
    const failing = new Set<string>();
    const sub = await subscribe(berth, g, receiver.sink('paged', { group: g, answer: (e) => ({ status: failing.has(e.subject) ? 503 : 200 }) }));
    const subjects = Array.from({ length: 5 }, () => childUid(g));
    failing.add(subjects[1]);
    failing.add(subjects[3]);
    const ids: string[] = [];
    for (const subject of subjects) ids.push(await events.emit({ group: g, subject }));
    await until('every delivery to settle', async () => {
      const all = (await list(sub, '?page_size=10')).json.deliveries as Delivery[];
      return all.length === 5 && all.every((d) => d.status !== 'PENDING');
    });
    const seen: string[] = [];
    let pageToken = '';
    let pages = 0;
    do {
      const r = await list(sub, `?page_size=2${pageToken ? `&page_token=${encodeURIComponent(pageToken)}` : ''}`);
      assert.equal(r.status, 200, r.text);
      assert.ok(r.json.deliveries.length <= 2);
      seen.push(...r.json.deliveries.map((d: Delivery) => d.eventId as string));
      pageToken = r.json.nextPageToken;
      pages++;
    } while (pageToken !== '' && pages < 10);
    assert.equal(pages, 3);
    assert.deepEqual(seen, [...ids].reverse());

    const dead = await list(sub, '?status=DEAD');
    assert.equal(dead.status, 200, dead.text);
    assert.deepEqual(
      dead.json.deliveries.map((d: Delivery) => d.eventId),
      [ids[3], ids[1]],
    );
    const delivered = await list(sub, '?status=DELIVERED&page_size=1');
    assert.deepEqual(
      delivered.json.deliveries.map((d: Delivery) => d.eventId),
      [ids[4]],
    );
    const other = await list(sub, `?page_token=${encodeURIComponent(delivered.json.nextPageToken)}`);
    assert.equal(other.status, 400, other.text);
    assert.equal(other.json.details[0].reason, 'INVALID_ARGUMENT');
    assert.equal((await list(sub, '?page_token=forged.token')).status, 400);
    assert.equal((await list(sub, '?page_size=-1')).status, 400);

    const cli = new BerthCli();
    const cred = ['--credentials', berth.credentialsFile, '--api', berth.url];
    const json = JSON.parse(await cli.ok('events', 'deliveries', 'list', sub, ...cred, '-o', 'json')) as Delivery[];
    assert.deepEqual(
      json.map((d) => d.eventId),
      [...ids].reverse(),
    );
    const deadIds = (await cli.ok('events', 'deliveries', 'list', sub, '--status', 'dead', ...cred, '-o', 'id')).trim().split('\n');
    assert.deepEqual(
      deadIds,
      dead.json.deliveries.map((d: Delivery) => d.id),
    );
    const table = await cli.ok('events', 'deliveries', 'list', sub, ...cred);
    assert.match(table, /^ID\s+STATUS\s+ATTEMPTS/);
    assert.match(table, /DEAD/);
    failing.clear();
    const redelivered = JSON.parse(await cli.ok('events', 'deliveries', 'redeliver', sub, deadIds[0], ...cred, '-o', 'json')) as Delivery;
    assert.equal(redelivered.status, 'PENDING');
    assert.equal(redelivered.eventId, ids[3]);
    await receiver.waitFor('the CLI redelivery', () => receiver.deliveredTo('paged').some((r) => r.ceId === ids[3]));
    assert.match(await cli.fails('events', 'deliveries', 'redeliver', sub, '999999999', ...cred), /not found/);
  });

  it('checks permission before existence', async () => {
    const g = await freshGroup();
    const sibling = await freshGroup();
    const sub = await subscribe(berth, g, receiver.sink('perm', { group: g }));
    const elsewhere = await subscribe(berth, sibling, receiver.sink('perm-elsewhere', { group: sibling }));
    const ceId = await events.emit({ group: g, subject: childUid(g) });
    await receiver.waitFor('a delivery', () => receiver.deliveredTo('perm').some((r) => r.ceId === ceId));
    const entry = ((await list(sub)).json.deliveries as Delivery[]).find((d) => d.eventId === ceId)!;

    const viewer = await identityWithRole(berth.url, token, berth.orgUid, 'viewer', g);
    const puller = await identityWithRole(berth.url, token, berth.orgUid, 'registry.pull', g);
    assert.equal((await list(sub, '', viewer.token)).status, 200, 'viewers see the log');
    const redeliver = (who: string, s = sub, id = String(entry.id)) =>
      rest(berth.url, 'POST', `/events/v2/subscriptions/${s}/deliveries/${id}:redeliver`, { token: who, body: {} });
    assert.equal((await redeliver(viewer.token)).status, 403, 'viewers cannot redeliver');
    assert.equal((await list(sub, '', puller.token)).status, 403, 'subscriptions.list is needed');
    // Out of scope: the same answer whether the subscription exists or not.
    assert.equal((await list(elsewhere, '', viewer.token)).status, 403);
    assert.equal((await list(childUid(sibling), '', viewer.token)).status, 403);
    assert.equal((await redeliver(viewer.token, elsewhere)).status, 403);
    // In scope: a missing subscription or delivery is NOT_FOUND; a malformed id INVALID_ARGUMENT.
    const missing = await list(childUid(g), '', viewer.token);
    assert.equal(missing.status, 404, missing.text);
    assert.equal((await redeliver(token, sub, '987654321')).status, 404);
    assert.equal((await redeliver(token, elsewhere, String(entry.id))).status, 404, 'a delivery of another subscription is not found');
    assert.equal((await redeliver(token, sub, 'abc')).status, 400);
    assert.equal((await list(sub, '', '')).status, 401);

    // The same over gRPC.
    const viaGrpc = await grpcClient(SubscriptionsService, berth.url, viewer.token).listDeliveries({ uid: sub });
    assert.deepEqual(
      viaGrpc.deliveries.filter((d) => d.eventId === ceId).map((d) => [d.id, d.eventId, d.status]),
      [[String(entry.id), entry.eventId, Delivery_Status.DELIVERED]],
    );
    await assert.rejects(grpcClient(SubscriptionsService, berth.url, puller.token).listDeliveries({ uid: sub }), (err: unknown) => {
      assert.ok(err instanceof ConnectError);
      assert.equal(err.code, Code.PermissionDenied);
      return true;
    });
    await assert.rejects(grpcClient(SubscriptionsService, berth.url, viewer.token).redeliverDelivery({ uid: sub, id: String(entry.id) }), (err: unknown) => {
      assert.ok(err instanceof ConnectError);
      assert.equal(err.code, Code.PermissionDenied);
      return true;
    });
    const again = await grpcClient(SubscriptionsService, berth.url, token).redeliverDelivery({ uid: sub, id: String(entry.id) });
    assert.equal(again.status, Delivery_Status.PENDING);
    assert.equal(again.eventId, entry.eventId);
  });
});

describe('delivery log retention', () => {
  let dataDir: string;
  let databaseUrl: string | undefined;
  let berth: Berth | undefined;
  before(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'berth-retention-'));
    databaseUrl = await freshDatabase();
  });
  after(async () => {
    await berth?.stop();
    await dropDatabase(databaseUrl);
  });

  it('prunes delivered rows older than --event-retention, and outbox rows nothing needs', async () => {
    berth = await startBerth({ dataDir, databaseUrl, extraArgs: ['--event-retention', '7d'] });
    const receiverPlaceholder = 'https://hooks.example/never-called';
    const sub = await subscribe(berth, berth.orgUid, receiverPlaceholder);
    // Planted while no server runs: a worker pruning between an outbox row and its delivery would
    // remove the row first (it is old and, for that moment, nothing needs it).
    await berth.stop();
    const old = new Date(Date.now() - 30 * 86_400_000).toISOString();
    const recent = new Date(Date.now() - 3_600_000).toISOString();
    const outbox = async (when: string, fannedOut: number, audience = 1) => {
      const [row] = await sqlQuery(
        berth!,
        `insert into event_outbox (event_id, type, audience, group_uid, subject, actor, body, body_type, extensions, create_time, fanned_out)
         values ($1, 'api.iam.group.updated.v1', $2, $3, $4, '{}', '{}', 'berth.iam.v2.Group', '{}', $5, $6) returning id`,
        [randomBytes(8).toString('hex'), audience, berth!.orgUid, childUid(berth!.orgUid), when, fannedOut],
      );
      return Number(row.id);
    };
    const delivery = async (outboxId: number, status: number, when: string) => {
      await sqlQuery(
        berth!,
        `insert into event_deliveries (subscription_uid, outbox_id, subject, status, attempts, next_attempt_time, retry_from, lease_owner, last_status_code, last_error, create_time, delivered_time)
         values ($1, $2, 's', $3, 1, '', $4, '', 200, '', $4, $5)`,
        [sub, outboxId, status, when, status === 2 ? when : ''],
      );
    };
    const oldDelivered = await outbox(old, 1);
    await delivery(oldDelivered, 2, old);
    const oldDead = await outbox(old, 1);
    await delivery(oldDead, 3, old);
    const oldInternal = await outbox(old, 0, 0);
    const recentDelivered = await outbox(recent, 1);
    await delivery(recentDelivered, 2, recent);
    // The worker prunes when it starts (and every minute after).
    berth = await startBerth({ dataDir, databaseUrl, extraArgs: ['--event-retention', '7d'] });
    const outboxLeft = async () => (await sqlQuery(berth!, 'select id from event_outbox order by id')).map((r) => Number(r.id));
    const end = Date.now() + 20_000;
    while ((await outboxLeft()).includes(oldDelivered) && Date.now() < end) await new Promise((r) => setTimeout(r, 100));
    assert.deepEqual(await outboxLeft(), [oldDead, recentDelivered], 'the old delivered event and the old internal one are gone');
    const left = await sqlQuery(berth, 'select outbox_id, status from event_deliveries order by outbox_id');
    assert.deepEqual(
      left.map((r) => [Number(r.outbox_id), Number(r.status)]),
      [
        [oldDead, 3],
        [recentDelivered, 2],
      ],
    );
    assert.ok(oldInternal > 0);
    const token = ownerToken(berth.credentialsFile, berth.url);
    const log = await rest(berth.url, 'GET', `/events/v2/subscriptions/${sub}/deliveries`, { token });
    assert.equal(log.json.deliveries.length, 2);
  });
});

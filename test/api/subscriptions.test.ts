// Event subscriptions over REST and gRPC, v2 and v1: create under a group,
// get, list (uid order, uidp filters, paging), delete; the reference's
// capability rules with permission before existence; the group's deletion
// taking its subscriptions; and the outbox row each Create and Delete writes
// with its change (none for a refused create).
import type { Selectable } from 'kysely';
import type { EventOutboxTable } from '../../src/events/events-tables.js';
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Code, ConnectError } from '@connectrpc/connect';
import { SubscriptionsService } from '../../src/gen/berth/events/v2/subscriptions_pb.js';
import { grpcClient, identityWithRole, rest } from '../harness/api-client.js';
import { useBerth, type Berth } from '../harness/berth-process.js';
import { sqlQuery } from '../harness/database.js';

const TIME = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;
const SINK = 'https://hooks.example.com/berth';

type OutboxRow = Omit<Selectable<EventOutboxTable>, 'id' | 'event_id' | 'create_time'>;

function grpcCode(err: unknown): Code {
  assert.ok(err instanceof ConnectError, String(err));
  return err.code;
}

describe('events subscriptions', () => {
  let berth: Berth;
  let token: string;
  const api = (method: string, path: string, body?: unknown, as = token) => rest(berth.url, method, path, { token: as, body });
  const group = async (name: string, parent = berth.orgUid) => {
    const r = await api('POST', `/iam/v2/groups/${parent}`, { name });
    assert.equal(r.status, 200, r.text);
    return r.json.uid as string;
  };
  const subscribe = async (parent: string, sink = SINK, as = token) => {
    const r = await api('POST', `/events/v2/subscriptions/${parent}`, { sink }, as);
    assert.equal(r.status, 200, r.text);
    return r.json.uid as string;
  };
  const outbox = (subject: string) =>
    sqlQuery(berth, 'select type, audience, group_uid, subject, actor, body, body_type, extensions from event_outbox where subject = $1 order by id', [
      subject,
    ]) as Promise<unknown> as Promise<OutboxRow[]>;
  const outboxCount = async () => Number((await sqlQuery(berth, 'select count(*) as n from event_outbox'))[0].n);

  useBerth((b, t) => {
    berth = b;
    token = t;
  });

  it('creates a subscription under a group, gets, lists and deletes it over REST', async () => {
    const folder = await group('subs-crud');
    const c = await api('POST', `/events/v2/subscriptions/${folder}`, { sink: SINK });
    assert.equal(c.status, 200, c.text);
    assert.match(c.json.uid, new RegExp(`^${folder}/[0-9a-f]{16}$`));
    assert.equal(c.json.sink, SINK);
    assert.equal(c.json.signed, false);
    assert.match(c.json.createTime, TIME);
    assert.deepEqual(Object.keys(c.json).sort(), ['createTime', 'signed', 'sink', 'uid']);
    const uid = c.json.uid as string;

    const got = await api('GET', `/events/v2/subscriptions/${uid}`);
    assert.equal(got.status, 200, got.text);
    assert.deepEqual(got.json, c.json);
    const listed = await api('GET', `/events/v2/subscriptions?uidp.children_of=${folder}`);
    assert.equal(listed.status, 200, listed.text);
    assert.deepEqual(listed.json, { subscriptions: [c.json], nextPageToken: '', totalCount: '1', skipped: 0 });

    const del = await api('DELETE', `/events/v2/subscriptions/${uid}`);
    assert.equal(del.status, 200, del.text);
    assert.equal(del.text, '{}');
    const gone = await api('GET', `/events/v2/subscriptions/${uid}`);
    assert.equal(gone.status, 404, gone.text);
    assert.equal(gone.json.details[1].resourceType, 'events.berth.dev/Subscription');
    assert.equal(gone.json.details[0].domain, 'events.berth.dev');
    assert.equal((await api('DELETE', `/events/v2/subscriptions/${uid}`)).status, 404);
    assert.equal((await api('GET', `/events/v2/subscriptions?uidp.children_of=${folder}`)).json.totalCount, '0');
  });

  it('serves the same subscriptions over gRPC', async () => {
    const folder = await group('subs-grpc');
    const client = grpcClient(SubscriptionsService, berth.url, token);
    const s = await client.createSubscription({ parent: folder, subscription: { sink: SINK } });
    assert.ok(s.uid.startsWith(`${folder}/`));
    assert.equal(s.signed, false);
    assert.equal(s.signingSecret, '');
    assert.deepEqual(await client.getSubscription({ uid: s.uid }), s);
    const viaRest = await api('GET', `/events/v2/subscriptions/${s.uid}`);
    assert.equal(viaRest.json.sink, SINK);
    const page = await client.listSubscriptions({ uidp: { childrenOf: folder } });
    assert.deepEqual(
      page.subscriptions.map((x) => x.uid),
      [s.uid],
    );
    assert.equal(page.totalCount, 1n);
    await client.deleteSubscription({ uid: s.uid });
    await assert.rejects(client.getSubscription({ uid: s.uid }), (err) => grpcCode(err) === Code.NotFound);
    await assert.rejects(client.createSubscription({ parent: folder, subscription: { sink: 'http://hooks.example.com/' } }), (err) => {
      assert.equal(grpcCode(err), Code.InvalidArgument);
      assert.match((err as ConnectError).rawMessage, /subscription\.sink/);
      return true;
    });
  });

  it('refuses a parent that is not a group, a bad uid, and a missing sink', async () => {
    const folder = await group('subs-parent');
    const notGroup = await subscribe(folder);
    const under = await api('POST', `/events/v2/subscriptions/${notGroup}`, { sink: SINK });
    assert.equal(under.status, 404, under.text);
    assert.equal(under.json.details[1].resourceType, 'iam.berth.dev/Group');
    const missing = await api('POST', `/events/v2/subscriptions/${folder}/0123456789abcdef`, { sink: SINK });
    assert.equal(missing.status, 404, missing.text);
    const badUid = await api('GET', '/events/v2/subscriptions/not-a-uid');
    assert.equal(badUid.status, 400, badUid.text);
    const noSink = await api('POST', `/events/v2/subscriptions/${folder}`, {});
    assert.equal(noSink.status, 400, noSink.text);
    assert.equal(noSink.json.details[1].fieldViolations[0].field, 'subscription.sink');
    const nul = await api('POST', `/events/v2/subscriptions/${folder}`, { sink: 'https://hooks.example.com/\u0000' });
    assert.equal(nul.status, 400, nul.text);
    assert.equal((await api('GET', `/events/v2/subscriptions?uidp.children_of=${folder}`)).json.totalCount, '1');
  });

  it('serves v1: {id, sink} items, filters by id and uidp, over the same subscriptions', async () => {
    const folder = await group('subs-v1');
    const c = await api('POST', `/events/v1/subscriptions/${folder}`, { sink: SINK });
    assert.equal(c.status, 200, c.text);
    assert.deepEqual(Object.keys(c.json).sort(), ['id', 'sink']);
    assert.ok(c.json.id.startsWith(`${folder}/`));
    const v2 = await subscribe(folder, 'https://other.example.com/hook');

    const all = await api('GET', `/events/v1/subscriptions?uidp.descendants_of=${folder}`);
    assert.equal(all.status, 200, all.text);
    assert.deepEqual(
      all.json.items,
      [c.json, { id: v2, sink: 'https://other.example.com/hook' }].sort((a, b) => (a.id < b.id ? -1 : 1)),
    );
    const one = await api('GET', `/events/v1/subscriptions?id=${encodeURIComponent(v2)}`);
    assert.deepEqual(one.json, { items: [{ id: v2, sink: 'https://other.example.com/hook' }] });
    const badId = await api('GET', '/events/v1/subscriptions?id=nope');
    assert.equal(badId.status, 400, badId.text);
    assert.equal(badId.json.details[1].fieldViolations[0].field, 'id');
    assert.equal((await api('GET', `/events/v2/subscriptions/${c.json.id}`)).json.sink, SINK);

    const refused = await api('POST', `/events/v1/subscriptions/${folder}`, { sink: 'https://169.254.169.254/latest' });
    assert.equal(refused.status, 400, refused.text);
    assert.equal(refused.json.details[1].fieldViolations[0].field, 'subscription.sink');

    assert.equal((await api('DELETE', `/events/v1/subscriptions/${c.json.id}`)).status, 200);
    assert.equal((await api('DELETE', `/events/v1/subscriptions/${c.json.id}`)).status, 404);
    assert.deepEqual((await api('GET', `/events/v1/subscriptions?uidp.descendants_of=${folder}`)).json, {
      items: [{ id: v2, sink: 'https://other.example.com/hook' }],
    });
  });

  it('answers v1 List in one piece up to 1000 subscriptions, and asks to narrow it beyond', async () => {
    const folder = await group('subs-v1-bound');
    // Planted in one statement: a thousand creates through the API would only be slow.
    const plant = async (from: number, count: number) => {
      const now = new Date().toISOString();
      const values: unknown[] = [];
      const tuples: string[] = [];
      for (let i = from; i < from + count; i++) {
        const at = values.length;
        values.push(`${folder}/${i.toString(16).padStart(16, '0')}`, folder, `https://h${i}.example.com/`, '', now, now);
        tuples.push(`($${at + 1}, $${at + 2}, $${at + 3}, $${at + 4}, $${at + 5}, $${at + 6})`);
      }
      await sqlQuery(
        berth,
        `insert into event_subscriptions (uid, parent_uid, sink, signing_secret, create_time, update_time) values ${tuples.join(', ')}`,
        values,
      );
    };
    await plant(0, 1000);
    const all = await api('GET', `/events/v1/subscriptions?uidp.children_of=${folder}`);
    assert.equal(all.status, 200, all.text.slice(0, 300));
    assert.equal(all.json.items.length, 1000);
    assert.deepEqual(
      all.json.items.map((s: { id: string }) => s.id),
      all.json.items.map((s: { id: string }) => s.id).sort(),
    );
    await plant(1000, 1);
    const over = await api('GET', `/events/v1/subscriptions?uidp.children_of=${folder}`);
    assert.equal(over.status, 400, over.text.slice(0, 300));
    assert.equal(over.json.code, Code.FailedPrecondition);
    assert.match(over.json.message, /events\/v2\/subscriptions/);
    assert.equal(
      (await api('GET', `/events/v1/subscriptions?id=${encodeURIComponent(`${folder}/${(1000).toString(16).padStart(16, '0')}`)}`)).json.items.length,
      1,
    );
    assert.equal((await api('GET', `/events/v2/subscriptions?uidp.children_of=${folder}`)).json.totalCount, '1001');
  });

  it('lists in uid order by default, pages, orders by created_at and filters by uidp', async () => {
    const a = await group('subs-page-a');
    const b = await group('subs-page-b');
    const inA: string[] = [];
    for (let i = 0; i < 5; i++) inA.push(await subscribe(a, `https://a${i}.example.com/`));
    const inB = [await subscribe(b), await subscribe(b)];

    const walked: string[] = [];
    let pageToken = '';
    for (let n = 0; n < 10; n++) {
      const r = await api('GET', `/events/v2/subscriptions?uidp.descendants_of=${a}&page_size=2&page_token=${encodeURIComponent(pageToken)}`);
      assert.equal(r.status, 200, r.text);
      assert.equal(r.json.totalCount, '5');
      assert.ok(r.json.subscriptions.length <= 2);
      walked.push(...r.json.subscriptions.map((s: { uid: string }) => s.uid));
      pageToken = r.json.nextPageToken;
      if (pageToken === '') break;
    }
    assert.deepEqual(walked, [...inA].sort());

    // created_at, ties broken by uid: desc is exactly asc reversed.
    const byTime = async (dir: string) =>
      (await api('GET', `/events/v2/subscriptions?uidp.descendants_of=${a}&order_by=created_at%20${dir}`)).json.subscriptions as Array<{
        uid: string;
        createTime: string;
      }>;
    const asc = await byTime('asc');
    assert.deepEqual(
      asc.map((s) => s.createTime),
      asc.map((s) => s.createTime).sort(),
    );
    assert.deepEqual(
      (await byTime('desc')).map((s) => s.uid),
      asc.map((s) => s.uid).reverse(),
    );
    assert.deepEqual(asc.map((s) => s.uid).sort(), [...inA].sort());
    const children = await api('GET', `/events/v2/subscriptions?uidp.children_of=${b}`);
    assert.deepEqual(
      children.json.subscriptions.map((s: { uid: string }) => s.uid),
      [...inB].sort(),
    );
    const ids = await api('GET', `/events/v2/subscriptions?uidp.ids=${inA[1]}&uidp.ids=${inB[0]}`);
    assert.deepEqual(
      ids.json.subscriptions.map((s: { uid: string }) => s.uid),
      [inA[1], inB[0]].sort(),
    );
    const skipped = await api('GET', `/events/v2/subscriptions?uidp.descendants_of=${a}&skip=3`);
    assert.equal(skipped.json.skipped, 3);
    assert.equal(skipped.json.subscriptions.length, 2);
    const badOrder = await api('GET', '/events/v2/subscriptions?order_by=sink');
    assert.equal(badOrder.status, 400, badOrder.text);
    assert.match(badOrder.json.message, /sortable fields: uid, created_at/);
    const badFilter = await api('GET', '/events/v2/subscriptions?uidp.children_of=nope');
    assert.equal(badFilter.status, 400, badFilter.text);
  });

  it('follows the capability rules: viewers list and get, editors create and delete, others are denied before existence', async () => {
    const team = await group('subs-access');
    const elsewhere = await group('subs-access-elsewhere');
    const existing = await subscribe(team);
    const outside = await subscribe(elsewhere);
    const viewer = await identityWithRole(berth.url, token, berth.orgUid, 'viewer', team);
    const editor = await identityWithRole(berth.url, token, berth.orgUid, 'editor', team);
    const noGrpc = (t: string) => grpcClient(SubscriptionsService, berth.url, t);

    // viewer: list (only what it may see) and get; no create or delete
    const seen = await api('GET', '/events/v2/subscriptions', undefined, viewer.token);
    assert.deepEqual(
      seen.json.subscriptions.map((s: { uid: string }) => s.uid),
      [existing],
    );
    assert.equal((await api('GET', `/events/v2/subscriptions/${existing}`, undefined, viewer.token)).status, 200);
    assert.equal((await api('GET', `/events/v2/subscriptions/${outside}`, undefined, viewer.token)).status, 403);
    assert.equal((await api('POST', `/events/v2/subscriptions/${team}`, { sink: SINK }, viewer.token)).status, 403);
    assert.equal((await api('DELETE', `/events/v2/subscriptions/${existing}`, undefined, viewer.token)).status, 403);
    assert.equal((await api('POST', `/events/v1/subscriptions/${team}`, { sink: SINK }, viewer.token)).status, 403);
    assert.deepEqual((await api('GET', '/events/v1/subscriptions', undefined, viewer.token)).json, { items: [{ id: existing, sink: SINK }] });
    await assert.rejects(noGrpc(viewer.token).deleteSubscription({ uid: existing }), (err) => grpcCode(err) === Code.PermissionDenied);

    // editor: create and delete in its group, not elsewhere
    const made = await subscribe(team, SINK, editor.token);
    assert.equal((await api('DELETE', `/events/v2/subscriptions/${made}`, undefined, editor.token)).status, 200);
    assert.equal((await api('POST', `/events/v2/subscriptions/${elsewhere}`, { sink: SINK }, editor.token)).status, 403);
    assert.equal((await api('DELETE', `/events/v2/subscriptions/${outside}`, undefined, editor.token)).status, 403);

    // another organization's owner sees nothing here, and is denied whether the subscription exists or not
    const otherOrg = (await api('POST', '/iam/v2/groups', { name: `subs-other-${Date.now().toString(16)}` })).json.uid as string;
    const stranger = await identityWithRole(berth.url, token, otherOrg, 'owner', otherOrg);
    const theirs = await subscribe(otherOrg, SINK, stranger.token);
    const strangerList = await api('GET', '/events/v2/subscriptions', undefined, stranger.token);
    assert.deepEqual(
      strangerList.json.subscriptions.map((s: { uid: string }) => s.uid),
      [theirs],
    );
    assert.deepEqual((await api('GET', `/events/v2/subscriptions?uidp.descendants_of=${berth.orgUid}`, undefined, stranger.token)).json.subscriptions, []);
    for (const uid of [existing, `${team}/0123456789abcdef`]) {
      const r = await api('GET', `/events/v2/subscriptions/${uid}`, undefined, stranger.token);
      assert.equal(r.status, 403, `${uid}: ${r.text}`);
      await assert.rejects(noGrpc(stranger.token).getSubscription({ uid }), (err) => grpcCode(err) === Code.PermissionDenied);
    }
    assert.equal((await api('DELETE', `/events/v2/subscriptions/${existing}`, undefined, stranger.token)).status, 403);
    assert.equal((await api('POST', `/events/v2/subscriptions/${team}`, { sink: SINK }, stranger.token)).status, 403);
    assert.equal((await api('GET', `/events/v2/subscriptions/${existing}`)).status, 200, 'still there');
    assert.equal((await api('GET', '/events/v2/subscriptions')).status, 200);
    assert.equal((await api('GET', '/events/v2/subscriptions', undefined, '')).status, 401);
  });

  it("goes with its group: deleting a group deletes the group's subscriptions", async () => {
    const folder = await group('subs-cascade');
    const subs = [await subscribe(folder), await subscribe(folder, 'https://second.example.com/')];
    const sibling = await subscribe(await group('subs-cascade-sibling'));
    const del = await api('DELETE', `/iam/v2/groups/${folder}`);
    assert.equal(del.status, 200, del.text);
    for (const uid of subs) assert.equal((await api('GET', `/events/v2/subscriptions/${uid}`)).status, 404);
    assert.deepEqual(await sqlQuery(berth, 'select uid from event_subscriptions where parent_uid = $1', [folder]), []);
    assert.equal((await api('GET', `/events/v2/subscriptions/${sibling}`)).status, 200, 'other groups keep theirs');

    // A group with a child group still cannot be deleted, subscriptions or not.
    const parent = await group('subs-cascade-parent');
    await group('subs-cascade-child', parent);
    await subscribe(parent);
    assert.equal((await api('DELETE', `/iam/v2/groups/${parent}`)).status, 400);
    assert.equal((await api('GET', `/events/v2/subscriptions?uidp.children_of=${parent}`)).json.totalCount, '1');
  });

  it('writes the created and deleted events to the outbox with the change, and none for a refused create', async () => {
    const folder = await group('subs-outbox');
    const uid = await subscribe(folder);
    const [created] = await outbox(uid);
    assert.equal(created.type, 'api.events.subscription.created.v1');
    assert.equal(Number(created.audience), 1);
    assert.equal(created.group_uid, folder);
    assert.equal(created.subject, uid);
    assert.equal(created.body_type, 'berth.events.v2.Subscription');
    assert.deepEqual(JSON.parse(created.actor), { subject: berth.ownerIdentity });
    assert.deepEqual(JSON.parse(created.extensions), { group: folder });
    const body = JSON.parse(created.body);
    assert.equal(body.uid, uid);
    assert.equal(body.sink, SINK);
    assert.equal(body.signed, false);

    assert.equal((await api('DELETE', `/events/v2/subscriptions/${uid}`)).status, 200);
    const rows = await outbox(uid);
    assert.equal(rows.length, 2);
    assert.equal(rows[1].type, 'api.events.subscription.deleted.v1');
    assert.equal(rows[1].group_uid, folder);
    assert.equal(rows[1].body_type, 'berth.events.v2.DeleteSubscriptionRequest');
    assert.deepEqual(JSON.parse(rows[1].body), { uid });

    const v1 = await api('POST', `/events/v1/subscriptions/${folder}`, { sink: SINK });
    assert.equal((await api('DELETE', `/events/v1/subscriptions/${v1.json.id}`)).status, 200);
    assert.deepEqual(
      (await outbox(v1.json.id)).map((r) => [r.type, r.group_uid, r.body_type]),
      [
        ['api.events.subscription.created.v1', folder, 'berth.events.v2.Subscription'],
        ['api.events.subscription.deleted.v1', folder, 'berth.events.v2.DeleteSubscriptionRequest'],
      ],
    );

    const before = await outboxCount();
    assert.equal((await api('POST', `/events/v2/subscriptions/${folder}`, { sink: 'http://hooks.example.com/' })).status, 400);
    assert.equal((await api('POST', `/events/v2/subscriptions/${folder}/0123456789abcdef`, { sink: SINK })).status, 404);
    assert.equal((await api('DELETE', `/events/v2/subscriptions/${uid}`)).status, 404);
    assert.equal(await outboxCount(), before, 'a refused create or delete writes no event');
  });
});

// Advisories over REST and gRPC on a real server (SQLite, or PostgreSQL with
// BERTH_TEST_PG): the v1 writes (create, update, delete; events added
// PENDING and reviewed by someone else holding advisories.approve), the v2
// reads (List narrowed to the caller's groups, Get with permission before
// existence), the query-string forms of the filters and their validation,
// severities joined from vulnerability metadata, and the event each write
// emits.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Code, ConnectError } from '@connectrpc/connect';
import { AdvisoriesService } from '../../src/gen/berth/vulnerabilities/v2/advisories_pb.js';
import { grpcClient, identityWithRole, rest } from '../harness/api-client.js';
import { useBerth, type Berth } from '../harness/berth-process.js';
import { sqlQuery } from '../harness/database.js';

const CGA = 'CGA-2345-6789-cfgh';
const REVIEW_CAPS = ['CAP_ADVISORIES_LIST', 'CAP_ADVISORIES_CREATE', 'CAP_ADVISORIES_UPDATE', 'CAP_ADVISORIES_APPROVE'];

describe('advisories API', () => {
  let berth: Berth;
  let token: string;
  const api = (method: string, path: string, body?: unknown, as: string | null = token) => rest(berth.url, method, path, { token: as ?? undefined, body });
  const ok = async (p: ReturnType<typeof api>) => {
    const r = await p;
    assert.equal(r.status, 200, r.text);
    return r.json;
  };
  const group = async (name: string, parent = berth.orgUid) => (await ok(api('POST', `/iam/v2/groups/${parent}`, { name }))).uid as string;
  const advisory = (extra: Record<string, unknown> = {}) => ({
    artifactType: 'apk',
    artifactName: 'nginx',
    artifactArchitecture: 'x86_64',
    componentName: 'nginx',
    componentType: 'apk',
    componentLocation: './PKGINFO',
    aliases: ['CVE-2024-0001'],
    ...extra,
  });
  const create = async (parent: string, extra: Record<string, unknown> = {}) =>
    (await ok(api('POST', '/vulnerabilities/v1/advisories', { parentId: parent, advisory: advisory(extra) }))).id as string;
  const outbox = async (subject: string) =>
    (await sqlQuery(berth, 'select type, group_uid from event_outbox where subject = $1 order by id', [subject])).map((r) => `${r.type} ${r.group_uid}`);
  let reviewerRole = '';
  const reviewer = async () => {
    if (reviewerRole === '') {
      reviewerRole = (await ok(api('POST', `/iam/v2/roles/${berth.orgUid}`, { name: 'advisory-reviewer', capabilities: REVIEW_CAPS }))).uid;
    }
    return identityWithRole(berth.url, token, berth.orgUid, 'advisory-reviewer', berth.orgUid);
  };

  useBerth((b, t) => {
    berth = b;
    token = t;
  });

  it('creates, reads, updates and deletes an advisory through v1, read back through v2, each write with its event', async () => {
    const folder = await group('adv-crud');
    const c = await ok(api('POST', '/vulnerabilities/v1/advisories', { parentId: folder, advisory: advisory({ advisoryId: CGA }) }));
    assert.equal(c.advisoryId, CGA);
    assert.match(c.id, new RegExp(`^${folder}/[0-9a-f]{16}$`));
    assert.equal(c.author, berth.ownerIdentity);
    const uid = c.id as string;

    const got = await ok(api('GET', `/vulnerabilities/v2/advisories/${uid}`));
    assert.equal(got.uid, uid);
    assert.equal(got.advisoryId, CGA);
    assert.deepEqual(got.aliases, ['CVE-2024-0001']);
    assert.equal(got.artifactName, 'nginx');
    assert.equal(got.componentLocation, './PKGINFO');
    assert.equal(got.createTime, got.updateTime);
    const listed = await ok(api('GET', `/vulnerabilities/v2/advisories?uidp.descendantsOf=${berth.orgUid}&artifactNames=nginx&advisoryIds=${CGA}`));
    assert.deepEqual(
      listed.advisories.map((a: { uid: string }) => a.uid),
      [uid],
    );
    assert.equal(listed.totalCount, '1');

    // The same identity again in the group: ALREADY_EXISTS; in another group it is another advisory.
    const dup = await api('POST', '/vulnerabilities/v1/advisories', { parentId: folder, advisory: advisory({ advisoryId: CGA }) });
    assert.equal(dup.status, 409, dup.text);
    assert.equal(dup.json.details[0].domain, 'vulnerabilities.berth.dev');

    // Without an id, one is minted; two such creates are two advisories.
    const m1 = await create(folder);
    const m2 = await create(folder);
    assert.notEqual(m1, m2);
    assert.match((await ok(api('GET', `/vulnerabilities/v2/advisories/${m1}`))).advisoryId, /^CGA(-[23456789cfghjmpqrvwx]{4}){3}$/);

    const u = await ok(
      api(
        'PUT',
        `/vulnerabilities/v1/advisories/${uid}`,
        advisory({ artifactName: 'nginx-mod', componentName: 'libx', aliases: ['GHSA-2345-6789-cfgh', 'CVE-2024-0002'] }),
      ),
    );
    assert.equal(u.artifactName, 'nginx-mod');
    assert.deepEqual(u.aliases, ['CVE-2024-0002', 'GHSA-2345-6789-cfgh']);
    const after = await ok(api('GET', `/vulnerabilities/v2/advisories/${uid}`));
    assert.ok(after.updateTime >= got.updateTime);
    assert.equal((await ok(api('GET', `/vulnerabilities/v2/advisories?aliases=CVE-2024-0001&uidp.childrenOf=${folder}`))).totalCount, '2');
    assert.equal((await ok(api('GET', `/vulnerabilities/v2/advisories?aliases=GHSA-2345-6789-cfgh`))).advisories[0].uid, uid);
    assert.equal((await ok(api('GET', `/vulnerabilities/v2/advisories?query=MOD&uidp.childrenOf=${folder}`))).totalCount, '1');

    const del = await api('DELETE', `/vulnerabilities/v1/advisories/${uid}`);
    assert.equal(del.status, 200, del.text);
    assert.equal((await api('GET', `/vulnerabilities/v2/advisories/${uid}`)).status, 404);
    assert.equal((await api('DELETE', `/vulnerabilities/v1/advisories/${uid}`)).status, 404);
    assert.deepEqual(await outbox(uid), [
      `api.vulnerabilities.advisory.created.v1 ${folder}`,
      `api.vulnerabilities.advisory.updated.v1 ${folder}`,
      `api.vulnerabilities.advisory.deleted.v1 ${folder}`,
    ]);
  });

  it('refuses bad advisories: missing fields, a malformed id or alias, an alias equal to the id, events in the body', async () => {
    const folder = await group('adv-bad');
    const bad = async (body: unknown, field: RegExp) => {
      const r = await api('POST', '/vulnerabilities/v1/advisories', body);
      assert.equal(r.status, 400, r.text);
      assert.match(r.json.details[1].fieldViolations.map((v: { field: string }) => v.field).join(' '), field);
    };
    await bad({ parentId: folder, advisory: advisory({ artifactName: '' }) }, /advisory\.artifact_name/);
    await bad({ parentId: folder, advisory: advisory({ componentLocation: undefined }) }, /advisory\.component_location/);
    await bad({ parentId: folder, advisory: advisory({ advisoryId: 'CGA-1111-1111-1111' }) }, /advisory\.advisory_id/);
    await bad({ parentId: folder, advisory: advisory({ aliases: ['CVE-x'] }) }, /advisory\.aliases/);
    await bad({ parentId: folder, advisory: advisory({ artifactName: 'x'.repeat(300) }) }, /advisory\.artifact_name/);
    await bad({ parentId: folder, advisory: advisory({ events: [{ fixed: { fixedVersion: '1' } }] }) }, /advisory\.events/);
    const notGroup = await create(folder);
    const r = await api('POST', '/vulnerabilities/v1/advisories', { parentId: `${folder}/0123456789abcdef`, advisory: advisory() });
    assert.equal(r.status, 404, r.text);
    assert.ok(notGroup);
  });

  it('adds events PENDING by the caller; a reviewer approves, rejects or requests changes; approved and rejected are final', async () => {
    const folder = await group('adv-events');
    const uid = await create(folder);
    const rev = await reviewer();
    const before = (await ok(api('GET', `/vulnerabilities/v2/advisories/${uid}`))).updateTime;
    const e = await ok(api('POST', `/vulnerabilities/v1/advisories/${uid}/events`, { advisoryEvent: { fixed: { fixedVersion: '1.2.3-r1' } } }));
    assert.equal(e.status, 'PENDING');
    assert.equal(e.author, berth.ownerIdentity);
    assert.equal(e.reviewer ?? '', '');
    assert.match(e.id, new RegExp(`^${uid}/[0-9a-f]{16}$`));
    const v2 = await ok(api('GET', `/vulnerabilities/v2/advisories/${uid}`));
    assert.ok(v2.updateTime > before || v2.updateTime === before);
    assert.equal(v2.events[0].fixed.fixedVersion, '1.2.3-r1');
    assert.equal(v2.events[0].reviewState, 'REVIEW_STATE_PENDING');
    // Pending events do not count for latest_event_type.
    assert.equal((await ok(api('GET', `/vulnerabilities/v2/advisories?latestEventType=EVENT_TYPE_FILTER_FIXED&uidp.childrenOf=${folder}`))).totalCount, '0');
    assert.equal((await ok(api('GET', `/vulnerabilities/v2/advisories?eventReviewStates=REVIEW_STATE_PENDING&uidp.childrenOf=${folder}`))).totalCount, '1');

    // The author cannot review their own event.
    const self = await api('PUT', `/vulnerabilities/v1/advisory_events/${e.id}`, { status: 'APPROVED' });
    assert.equal(self.status, 403, self.text);
    // A reviewer cannot edit the payload; the author can, while PENDING or REQUEST_CHANGES.
    const rc = await ok(api('PUT', `/vulnerabilities/v1/advisory_events/${e.id}`, { status: 'REQUEST_CHANGES' }, rev.token));
    assert.equal(rc.status, 'REQUEST_CHANGES');
    assert.equal(rc.reviewer, rev.uid);
    const notAuthor = await api('PUT', `/vulnerabilities/v1/advisory_events/${e.id}`, { fixed: { fixedVersion: '9' } }, rev.token);
    assert.equal(notAuthor.status, 403, notAuthor.text);
    const edited = await ok(api('PUT', `/vulnerabilities/v1/advisory_events/${e.id}`, { fixed: { fixedVersion: '1.2.4-r0' } }));
    assert.equal(edited.status, 'PENDING');
    assert.deepEqual(edited.fixed, { fixedVersion: '1.2.4-r0' });
    const changedInReview = await api('PUT', `/vulnerabilities/v1/advisory_events/${e.id}`, { status: 'APPROVED', fixed: { fixedVersion: '7' } }, rev.token);
    assert.equal(changedInReview.status, 400, changedInReview.text);
    const approved = await ok(
      api('PUT', `/vulnerabilities/v1/advisory_events/${e.id}`, { status: 'APPROVED', fixed: { fixedVersion: '1.2.4-r0' } }, rev.token),
    );
    assert.equal(approved.status, 'APPROVED');
    assert.equal((await ok(api('GET', `/vulnerabilities/v2/advisories?latestEventType=EVENT_TYPE_FILTER_FIXED&uidp.childrenOf=${folder}`))).totalCount, '1');
    assert.equal((await ok(api('GET', `/vulnerabilities/v2/advisories?latest_event_type=3&uidp.childrenOf=${folder}`))).totalCount, '1');
    const final = await api('PUT', `/vulnerabilities/v1/advisory_events/${e.id}`, { status: 'REJECTED' }, rev.token);
    assert.equal(final.status, 400, final.text);
    assert.equal(final.json.code, 9);

    // A viewer (advisories.list only) cannot review; an editor without advisories.approve neither.
    const e2 = await ok(api('POST', `/vulnerabilities/v1/advisories/${uid}/events`, { advisoryEvent: { detection: { manual: {} } } }, rev.token));
    const viewer = await identityWithRole(berth.url, token, berth.orgUid, 'viewer', berth.orgUid);
    assert.equal((await api('PUT', `/vulnerabilities/v1/advisory_events/${e2.id}`, { status: 'APPROVED' }, viewer.token)).status, 403);
    const rejected = await ok(api('PUT', `/vulnerabilities/v1/advisory_events/${e2.id}`, { status: 'REJECTED' }));
    assert.equal(rejected.reviewer, berth.ownerIdentity);
    const events = await ok(api('GET', `/vulnerabilities/v1/advisories/${uid}/events`));
    assert.deepEqual(
      events.items.map((x: { id: string; status: string }) => [x.id, x.status]),
      [
        [e.id, 'APPROVED'],
        [e2.id, 'REJECTED'],
      ],
    );
    const v2After = await ok(api('GET', `/vulnerabilities/v2/advisories?eventReviewers=${rev.uid}&eventAuthors=${rev.uid}&uidp.childrenOf=${folder}`));
    assert.equal(v2After.totalCount, '1');
    assert.equal((await ok(api('GET', `/vulnerabilities/v2/advisories?excludeEventAuthors=${rev.uid}&uidp.childrenOf=${folder}`))).totalCount, '0');
    assert.deepEqual(await outbox(e.id), [
      `api.vulnerabilities.advisory_event.created.v1 ${folder}`,
      `api.vulnerabilities.advisory_event.updated.v1 ${folder}`,
      `api.vulnerabilities.advisory_event.updated.v1 ${folder}`,
      `api.vulnerabilities.advisory_event.updated.v1 ${folder}`,
    ]);
  });

  it('narrows List to the groups where the caller holds advisories.list; Get checks permission before existence', async () => {
    const a = await group('adv-scope-a');
    const b = await group('adv-scope-b');
    const inA = await create(a, { artifactName: 'scoped-pkg' });
    const inB = await create(b, { artifactName: 'scoped-pkg' });
    const viewerA = await identityWithRole(berth.url, token, berth.orgUid, 'viewer', a);
    const seen = await ok(api('GET', '/vulnerabilities/v2/advisories?artifactNames=scoped-pkg', undefined, viewerA.token));
    assert.deepEqual(
      seen.advisories.map((x: { uid: string }) => x.uid),
      [inA],
    );
    assert.equal((await api('GET', `/vulnerabilities/v2/advisories/${inB}`, undefined, viewerA.token)).status, 403);
    // A uid that does not exist where the caller may not look: 403, not 404.
    assert.equal((await api('GET', `/vulnerabilities/v2/advisories/${b}/0123456789abcdef`, undefined, viewerA.token)).status, 403);
    assert.equal((await api('GET', `/vulnerabilities/v2/advisories/${a}/0123456789abcdef`, undefined, viewerA.token)).status, 404);
    // Another organization's member sees nothing of this one.
    const other = (await ok(api('POST', '/iam/v2/groups', { name: `adv-other-${Date.now()}` }))).uid as string;
    const outsider = await identityWithRole(berth.url, token, other, 'viewer', other);
    const none = await ok(api('GET', '/vulnerabilities/v2/advisories?artifactNames=scoped-pkg', undefined, outsider.token));
    assert.deepEqual(none, { advisories: [], nextPageToken: '', totalCount: '0', skipped: 0 });
    assert.equal((await api('GET', '/vulnerabilities/v2/advisories', undefined, null)).status, 401);
    assert.equal((await api('GET', `/vulnerabilities/v2/advisories/${inA}`, undefined, null)).status, 401);
    // Writes need their capability: a viewer cannot create, update or delete.
    assert.equal((await api('POST', '/vulnerabilities/v1/advisories', { parentId: a, advisory: advisory() }, viewerA.token)).status, 403);
    assert.equal((await api('DELETE', `/vulnerabilities/v1/advisories/${inA}`, undefined, viewerA.token)).status, 403);
  });

  it('reads the filters from the query string as grpc-gateway does: repeated keys, snake or camel, enums by name or number', async () => {
    const folder = await group('adv-query');
    const x = await create(folder, { artifactName: 'qs-a', aliases: ['CVE-2024-1111'] });
    const y = await create(folder, { artifactName: 'qs-b', componentType: 'go-module', aliases: ['CVE-2024-2222'] });
    await create(folder, { artifactName: 'qs-a,qs-b' });
    const uids = async (q: string) =>
      (await ok(api('GET', `/vulnerabilities/v2/advisories?uidp.childrenOf=${folder}&${q}`))).advisories.map((a: { uid: string }) => a.uid).sort();
    assert.deepEqual(await uids('artifactNames=qs-a&artifactNames=qs-b'), [x, y].sort());
    assert.deepEqual(await uids('artifact_names=qs-a&artifactNames=qs-b'), [x, y].sort());
    assert.equal((await uids('artifactNames=qs-a,qs-b')).length, 1);
    assert.notDeepEqual(await uids('artifactNames=qs-a,qs-b'), [x]);
    // `x[]` keys are not this API's form: ignored.
    assert.equal((await uids('artifactNames[]=qs-a')).length, 3);
    assert.deepEqual(await uids('component_types=go-module'), [y]);
    assert.deepEqual(await uids('artifactNames=qs-a&aliases=CVE-2024-2222'), []);
    assert.deepEqual(await uids('origin=qs-b&artifactNames=qs-a'), [y]);
    await ok(api('POST', `/vulnerabilities/v1/advisories/${x}/events`, { advisoryEvent: { detection: { manual: {} } } }));
    for (const q of [
      'eventTypes=EVENT_TYPE_FILTER_DETECTION',
      'event_types=EVENT_TYPE_FILTER_DETECTION',
      'eventTypes=1',
      'eventTypes=1&eventTypes=EVENT_TYPE_FILTER_FIXED',
      'eventReviewStates=1',
    ]) {
      assert.deepEqual(await uids(q), [x], q);
    }
    assert.deepEqual(await uids('eventReviewStates=REVIEW_STATE_APPROVED'), []);
    assert.deepEqual(await uids('query=CVE-2024-22'), [y]);
    assert.deepEqual(await uids('query=%25'), []);
    assert.deepEqual(await uids('query=_'), []);
    assert.deepEqual(await uids('query=QS-'), [x, y, (await uids('artifactNames=qs-a,qs-b'))[0]].sort());
    const asc = await uids('orderBy=advisory_id');
    assert.equal(asc.length, 3);
    const page = await ok(api('GET', `/vulnerabilities/v2/advisories?uidp.childrenOf=${folder}&pageSize=2&orderBy=created_at desc`));
    assert.equal(page.advisories.length, 2);
    assert.equal(page.totalCount, '3');
    const rest2 = await ok(
      api('GET', `/vulnerabilities/v2/advisories?uidp.childrenOf=${folder}&pageSize=2&orderBy=created_at desc&pageToken=${page.nextPageToken}`),
    );
    assert.equal(rest2.advisories.length, 1);
  });

  it('refuses unspecified or unknown enums, oversize strings and too many values, naming the field', async () => {
    const bad = async (q: string, field: string) => {
      const r = await api('GET', `/vulnerabilities/v2/advisories?${q}`);
      assert.equal(r.status, 400, `${q}: ${r.text}`);
      assert.equal(r.json.details[0].domain, 'vulnerabilities.berth.dev');
      assert.ok(
        r.json.details[1].fieldViolations.some((v: { field: string }) => v.field === field || v.field === field.replace(/_(\w)/g, (_m, c) => c.toUpperCase())),
        `${q}: ${r.text}`,
      );
    };
    await bad('eventTypes=0', 'event_types');
    await bad('eventTypes=EVENT_TYPE_FILTER_UNSPECIFIED', 'event_types');
    await bad('eventTypes=99', 'event_types');
    await bad('eventReviewStates=REVIEW_STATE_UNSPECIFIED', 'event_review_states');
    await bad('eventReviewStates=NOPE', 'event_review_states');
    await bad('latestEventType=0', 'latest_event_type');
    await bad(`query=${'a'.repeat(257)}`, 'query');
    await bad(`artifactNames=${'a'.repeat(1025)}`, 'artifact_names');
    await bad('orderBy=aliases', 'order_by');
    const client = grpcClient(AdvisoriesService, berth.url, token);
    await assert.rejects(client.listAdvisories({ aliases: Array.from({ length: 1001 }, (_, i) => `CVE-2024-${1000 + i}`) }), (err) => {
      assert.ok(err instanceof ConnectError);
      assert.equal(err.code, Code.InvalidArgument);
      assert.match(err.rawMessage, /aliases/);
      return true;
    });
  });

  it('serves List and Get over gRPC, with severities from the metadata of the aliases, deduplicated', async () => {
    const folder = await group('adv-grpc');
    const uid = await create(folder, { artifactName: 'sev', aliases: ['CVE-2024-3333', 'GHSA-2345-6789-cfgh'] });
    const sev = JSON.stringify([
      { type: 'TYPE_CVSS_V3', score: 'CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:H/A:H' },
      { type: 'TYPE_CVSS_V4', score: 'CVSS:4.0/AV:N' },
    ]);
    const now = new Date().toISOString();
    for (const id of ['CVE-2024-3333', 'GHSA-2345-6789-cfgh']) {
      await sqlQuery(
        berth,
        'insert into vulnerability_metadata (id, summary, details, refs, severities, modified, update_time) values ($1, $2, $3, $4, $5, $6, $7)',
        [id, 's', 'd', '[]', sev, now, now],
      );
    }
    const client = grpcClient(AdvisoriesService, berth.url, token);
    const got = await client.getAdvisory({ uid });
    assert.deepEqual(
      got.severities.map((s) => [s.type, s.score]),
      [
        [2, 'CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:H/A:H'],
        [3, 'CVSS:4.0/AV:N'],
      ],
    );
    const page = await client.listAdvisories({ uidp: { childrenOf: folder }, query: 'sev' });
    assert.deepEqual(
      page.advisories.map((a) => a.uid),
      [uid],
    );
    assert.equal(page.advisories[0].severities.length, 2);
    const rest1 = await ok(api('GET', `/vulnerabilities/v2/advisories/${uid}`));
    assert.deepEqual(rest1.severities[0], { type: 'TYPE_CVSS_V3', score: 'CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:H/A:H' });
    await assert.rejects(client.getAdvisory({ uid: `${folder}/0123456789abcdef` }), (err) => err instanceof ConnectError && err.code === Code.NotFound);
  });

  it('v1 List filters with AdvisoryFilter and pages', async () => {
    const folder = await group('adv-v1-list');
    const a = await create(folder, { artifactName: 'v1-a' });
    await create(folder, { artifactName: 'v1-b', aliases: [] });
    const l = await ok(api('GET', `/vulnerabilities/v1/advisories?uidp.childrenOf=${folder}&artifact_name=v1-a`));
    assert.deepEqual(
      l.items.map((x: { id: string }) => x.id),
      [a],
    );
    const all = await ok(api('GET', `/vulnerabilities/v1/advisories?uidp.childrenOf=${folder}&orderBy=ID_DESC&pageSize=1`));
    assert.equal(all.items.length, 1);
    assert.equal(all.totalCount, '2');
    assert.notEqual(all.nextPageToken, '');
    assert.equal((await ok(api('GET', `/vulnerabilities/v1/advisories?id=${a}`))).items.length, 1);
    assert.equal((await api('GET', '/vulnerabilities/v1/advisories?eventStatuses=0')).status, 400);
  });
});

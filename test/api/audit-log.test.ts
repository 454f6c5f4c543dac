// The audit log (docs/audit.md) through its public surface: a create, update
// and delete over REST and gRPC and a registry push and delete each leave one
// entry with who, what, which resource, group, address and outcome; the entry
// is written in the change's transaction (an entry that cannot be written
// fails the change); refused mutations are audited as DENIED; the list's
// filters, paging and access (audit.list, per subtree and organization); and
// retention.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { describe, it } from 'node:test';
import { Code, ConnectError } from '@connectrpc/connect';
import { ReposService } from '../../src/gen/berth/registry/v2/repos_pb.js';
import { AuditService } from '../../src/gen/berth/audit/v2/audit_pb.js';
import { grpcClient, identityWithRole, rest } from '../harness/api-client.js';
import { useBerth, usingPostgres, type Berth } from '../harness/berth-process.js';
import { sqlQuery } from '../harness/database.js';
import { basic, identityWithKeys, registryHost, tokenGet } from '../harness/registry-client.js';
import { imageManifest, RepoClient } from '../harness/registry-gc.js';
import { enableScim, newProvider, scimClient, USER } from '../scim/scim-client.js';

const LOOPBACK = /^(::ffff:)?127\.0\.0\.1$|^::1$/;

interface Entry {
  uid: string;
  group: string;
  identity?: string;
  action: string;
  resourceUid: string;
  resourceType: string;
  resourceName?: string;
  address?: string;
  outcome: string;
  createTime: string;
}

describe('audit log', () => {
  let berth: Berth;
  let token: string;
  const api = (method: string, path: string, body?: unknown, as = token) => rest(berth.url, method, path, { token: as, body });
  const entries = async (query: string, as = token): Promise<Entry[]> => {
    const r = await api('GET', `/audit/v2/entries?${query}`, undefined, as);
    assert.equal(r.status, 200, r.text);
    return r.json.entries as Entry[];
  };
  const group = async (name: string, parent = berth.orgUid) => {
    const r = await api('POST', `/iam/v2/groups/${parent}`, { name });
    assert.equal(r.status, 200, r.text);
    return r.json.uid as string;
  };

  // Short enough that retention runs within the test (every 7.5 s), long enough for every other
  // test to read its entries back well before they expire.
  useBerth(
    (b, t) => {
      berth = b;
      token = t;
    },
    { extraArgs: ['--audit-retention', '30s'] },
  );

  it('records a create, an update and a delete over REST, each once, with who, what, where and from where', async () => {
    const created = await api('POST', `/iam/v2/groups/${berth.orgUid}`, { name: 'audited' });
    assert.equal(created.status, 200, created.text);
    const uid = created.json.uid as string;
    assert.equal((await api('PATCH', `/iam/v2/groups/${uid}`, { description: 'changed' })).status, 200);
    assert.equal((await api('DELETE', `/iam/v2/groups/${uid}`)).status, 200);

    const got = await entries(`resource_uid=${uid}`);
    assert.deepEqual(
      got.map((e) => e.action),
      ['DeleteGroup', 'UpdateGroup', 'CreateGroup'].map((m) => `berth.iam.v2.GroupsService/${m}`),
      'newest first, one per change',
    );
    for (const e of got) {
      assert.equal(e.identity, berth.ownerIdentity);
      assert.equal(e.group, uid, "a group's changes belong to the group, as its events do");
      assert.equal(e.resourceType, 'iam.group');
      assert.equal(e.outcome, 'SUCCEEDED');
      assert.match(e.address ?? '', LOOPBACK);
      assert.match(e.uid, new RegExp(`^${uid}/[0-9a-f]{16}$`));
      assert.match(e.createTime, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    }
    const stored = await sqlQuery(berth, 'select * from audit_entries where resource_uid = $1', [uid]);
    assert.equal(stored.length, 3);
    assert.ok(!JSON.stringify(stored).includes('changed'), 'no request body is stored');
  });

  it('records a gRPC change with its caller and address, and serves the list over gRPC', async () => {
    const repos = grpcClient(ReposService, berth.url, token);
    const repo = await repos.createRepo({ parent: berth.orgUid, repo: { name: `grpc-${randomBytes(3).toString('hex')}` } });
    const list = await grpcClient(AuditService, berth.url, token).listEntries({ resourceUid: repo.uid });
    assert.equal(list.entries.length, 1);
    const [e] = list.entries;
    assert.equal(e.action, 'berth.registry.v2.ReposService/CreateRepo');
    assert.equal(e.resourceType, 'platform.registry.repo');
    assert.equal(e.identity, berth.ownerIdentity);
    assert.match(e.address, LOOPBACK);
  });

  it('writes the entry in the transaction of the change: a change whose entry cannot be written does not happen', async () => {
    const pg = usingPostgres();
    const name = `atomic-${randomBytes(3).toString('hex')}`;
    // Refuse every audit row of a repo create, at the database, for the length of this test.
    const refuse = pg
      ? [
          `create function refuse_audit() returns trigger language plpgsql as $$ begin if new.resource_type = 'platform.registry.repo' then raise exception 'refused'; end if; return new; end $$`,
          'create trigger refuse_audit before insert on audit_entries for each row execute function refuse_audit()',
        ]
      : [
          `create trigger refuse_audit before insert on audit_entries when new.resource_type = 'platform.registry.repo' begin select raise(abort, 'refused'); end`,
        ];
    for (const s of refuse) await sqlQuery(berth, s);
    try {
      const r = await api('POST', `/registry/v2/repos/${berth.orgUid}`, { name });
      assert.equal(r.status, 500, r.text);
    } finally {
      await sqlQuery(berth, pg ? 'drop trigger refuse_audit on audit_entries' : 'drop trigger refuse_audit');
      if (pg) await sqlQuery(berth, 'drop function refuse_audit()');
    }
    const listed = await api('GET', `/registry/v2/repos?name=${name}&uidp.children_of=${berth.orgUid}`);
    assert.equal(listed.json.totalCount, '0', 'the repo was not created');
    assert.equal((await sqlQuery(berth, `select count(*) as n from event_outbox where body like $1`, [`%${name}%`]))[0].n, pg ? '0' : 0);
  });

  it('records a registry push (the repo it creates, then the manifest) and a registry delete, not the blobs', async () => {
    const repo = `pushed-${randomBytes(3).toString('hex')}`;
    // A pushing identity of its own (RepoClient.open would spawn the CLI for the owner's token).
    const pusher = await identityWithKeys(berth, token, berth.orgUid, 'owner');
    const scoped = await tokenGet(berth, [`repository:${berth.orgName}/${repo}:pull,push,delete`], basic('_token', await pusher.tokenFor(registryHost(berth))));
    assert.equal(scoped.status, 200, scoped.text);
    const c = new RepoClient(berth, repo, scoped.json.token as string);
    const push = async (tag: string) => {
      const config = Buffer.from(JSON.stringify({ architecture: 'amd64', os: 'linux', nonce: randomBytes(8).toString('hex') }));
      const layer = randomBytes(1000);
      const cfg = { digest: await c.pushBlob(config), size: config.length };
      const l = { digest: await c.pushBlob(layer), size: layer.length };
      return c.putManifest(tag, imageManifest(cfg, [l]));
    };
    const first = await push('v1');
    const repoUid = (await api('GET', `/registry/v2/repos?name=${repo}`)).json.repos[0].uid as string;
    const afterFirst = await entries(`resource_uid=${repoUid}`);
    assert.deepEqual(
      afterFirst.map((e) => [e.action, e.resourceType, e.resourceName ?? '']),
      [
        ['registry.push', 'registry.manifest', `${berth.orgName}/${repo}:v1@${first}`],
        ['registry.push', 'platform.registry.repo', ''],
      ],
    );
    for (const e of afterFirst) {
      assert.equal(e.identity, pusher.uid);
      assert.equal(e.group, berth.orgUid);
      assert.match(e.address ?? '', LOOPBACK);
    }

    const second = await push('v2');
    const afterSecond = await entries(`resource_uid=${repoUid}`);
    assert.equal(afterSecond.length, 3, 'a push to an existing repo is one entry');
    assert.equal(afterSecond[0].resourceName, `${berth.orgName}/${repo}:v2@${second}`);

    assert.equal((await c.send('DELETE', `/v2/${c.name}/manifests/${first}`)).status, 202);
    const [deleted] = await entries(`resource_uid=${repoUid}`);
    assert.deepEqual([deleted.action, deleted.resourceType, deleted.resourceName], ['registry.delete', 'registry.manifest', `${c.name}@${first}`]);
  });

  it('records the changes of a SCIM client, the provider as who made them', async () => {
    const provider = await newProvider(berth.url, token, berth.orgUid);
    const { token: scimToken, endpoint } = await enableScim(berth.url, token, provider);
    const scim = scimClient(berth.url, endpoint, scimToken);
    const made = await scim('POST', '/Users', { schemas: [USER], userName: 'ada@example.com', active: true });
    assert.equal(made.status, 201, made.text);
    assert.equal((await scim('DELETE', `/Users/${made.json.id}`)).status, 204);
    const got = await entries(`identity=${provider}`);
    assert.deepEqual(
      got.map((e) => [e.action, e.resourceUid, e.resourceType, e.resourceName, e.group]),
      [
        ['scim.Users.delete', made.json.id, 'scim.user', 'ada@example.com', berth.orgUid],
        ['scim.Users.create', made.json.id, 'scim.user', 'ada@example.com', berth.orgUid],
      ],
    );
    assert.match(got[0].address ?? '', LOOPBACK);
  });

  it('records refused mutations as DENIED, over the API and the registry, and nothing for a caller without a token', async () => {
    const viewer = await identityWithRole(berth.url, token, berth.orgUid, 'viewer', berth.orgUid);
    const refused = await api('POST', `/iam/v2/groups/${berth.orgUid}`, { name: 'not-allowed' }, viewer.token);
    assert.equal(refused.status, 403, refused.text);
    const [e] = await entries(`identity=${viewer.uid}`);
    assert.deepEqual(
      [e.action, e.outcome, e.group, e.resourceUid, e.resourceType],
      ['berth.iam.v2.GroupsService/CreateGroup', 'DENIED', berth.orgUid, berth.orgUid, 'iam.group'],
    );
    assert.match(e.address ?? '', LOOPBACK);

    const before = (await sqlQuery(berth, 'select count(*) as n from audit_entries'))[0].n;
    assert.equal((await api('POST', `/iam/v2/groups/${berth.orgUid}`, { name: 'anonymous' }, '')).status, 401);
    assert.equal((await sqlQuery(berth, 'select count(*) as n from audit_entries'))[0].n, before, 'no entry without an identity');

    // A registry token of the viewer reaches pull only: its push is refused and audited.
    const host = registryHost(berth);
    const pullOnly = await identityWithKeys(berth, token, berth.orgUid, 'viewer');
    const t = await tokenGet(berth, [`repository:${berth.orgName}/denied:pull,push`], basic('_token', await pullOnly.tokenFor(host)));
    assert.equal(t.status, 200, t.text);
    const r = await new RepoClient(berth, 'denied', t.json.token as string).send('POST', `/v2/${berth.orgName}/denied/blobs/uploads/`);
    assert.equal(r.status, 401, r.text);
    const [pushRefused] = await entries(`identity=${pullOnly.uid}`);
    assert.deepEqual(
      [pushRefused.action, pushRefused.outcome, pushRefused.group, pushRefused.resourceName],
      ['registry.push', 'DENIED', berth.orgUid, `${berth.orgName}/denied`],
    );
  });

  it('filters by group, identity, resource and time, and pages newest first', async () => {
    const folder = await group('audit-filters');
    const made: string[] = [];
    for (const name of ['a', 'b', 'c']) {
      const r = await api('POST', `/registry/v2/repos/${folder}`, { name });
      assert.equal(r.status, 200, r.text);
      made.push(r.json.uid as string);
    }
    const newestFirst = [...made].reverse();
    // The folder's own creation and the repos made in it.
    const inFolder = await entries(`uidp.children_of=${folder}`);
    assert.deepEqual(
      inFolder.map((e) => e.resourceUid),
      [...newestFirst, folder],
    );
    const below = await entries(`uidp.descendants_of=${berth.orgUid}&resource_uid=${made[0]}`);
    assert.equal(below.length, 1);
    assert.equal((await entries(`identity=${berth.ownerIdentity}&uidp.children_of=${folder}`)).length, 4);

    const seen: string[] = [];
    let pageToken = '';
    do {
      const r = await api('GET', `/audit/v2/entries?uidp.children_of=${folder}&page_size=3&page_token=${encodeURIComponent(pageToken)}`);
      assert.equal(r.status, 200, r.text);
      assert.equal(r.json.totalCount, '4');
      seen.push(...(r.json.entries as Entry[]).map((e) => e.resourceUid));
      pageToken = r.json.nextPageToken ?? '';
    } while (pageToken !== '');
    assert.deepEqual(seen, [...newestFirst, folder]);
    const oldest = await entries(`uidp.children_of=${folder}&order_by=created_at&page_size=1`);
    assert.equal(oldest[0].resourceUid, folder);
    const skipped = await api('GET', `/audit/v2/entries?uidp.children_of=${folder}&skip=1&page_size=1`);
    assert.deepEqual([skipped.json.entries[0].resourceUid, skipped.json.skipped], [newestFirst[1], 1]);

    const at = inFolder[1].createTime;
    const since = await entries(`uidp.children_of=${folder}&start_time=${at}`);
    assert.ok(since.length >= 2 && since.every((e) => e.createTime >= at));
    const until = await entries(`uidp.children_of=${folder}&end_time=${at}`);
    assert.ok(until.every((e) => e.createTime < at));
    assert.equal(since.length + until.length, 4);
    assert.deepEqual(await entries(`identity=${berth.orgUid}`), [], 'no entries of an identity that made none');
  });

  it('shows a caller the entries of the subtrees where it holds audit.list, and nothing of another organization', async () => {
    assert.equal((await rest(berth.url, 'GET', '/audit/v2/entries')).status, 401);

    const team = await group('audit-team');
    const inside = await group('inside', team);
    await group('outside');
    const teamOwner = await identityWithRole(berth.url, token, berth.orgUid, 'owner', team);
    const seen = await entries('page_size=200', teamOwner.token);
    assert.ok(seen.length >= 1);
    assert.ok(
      seen.every((e) => e.group === team || e.group.startsWith(`${team}/`)),
      'only entries of its subtree',
    );
    assert.ok(seen.some((e) => e.resourceUid === inside));

    const viewer = await identityWithRole(berth.url, token, berth.orgUid, 'viewer', berth.orgUid);
    assert.deepEqual(await entries('', viewer.token), [], 'viewers do not hold audit.list');

    const other = await api('POST', '/iam/v2/groups', { name: `audit-other-${randomBytes(3).toString('hex')}.example` });
    assert.equal(other.status, 200, other.text);
    const otherOwner = await identityWithRole(berth.url, token, other.json.uid, 'owner', other.json.uid);
    const theirs = await entries('page_size=200', otherOwner.token);
    assert.ok(
      theirs.every((e) => e.group === other.json.uid || e.group.startsWith(`${other.json.uid}/`)),
      'nothing of the first organization',
    );
    assert.ok(!theirs.some((e) => e.group.startsWith(berth.orgUid)));

    try {
      await grpcClient(AuditService, berth.url).listEntries({});
      assert.fail('expected UNAUTHENTICATED');
    } catch (err) {
      assert.ok(err instanceof ConnectError);
      assert.equal(err.code, Code.Unauthenticated);
    }
  });

  it('deletes entries older than --audit-retention', async () => {
    const r = await api('POST', `/iam/v2/groups/${berth.orgUid}`, { name: 'short-lived' });
    assert.equal(r.status, 200, r.text);
    const count = async () => Number((await sqlQuery(berth, 'select count(*) as n from audit_entries where resource_uid = $1', [r.json.uid]))[0].n);
    assert.equal(await count(), 1);
    const dayAgo = new Date(Date.now() - 86_400_000).toISOString();
    await sqlQuery(berth, 'update audit_entries set create_time = $1 where resource_uid = $2', [dayAgo, r.json.uid]);
    const fresh = await group('kept');
    const until = Date.now() + 15_000;
    while ((await count()) > 0 && Date.now() < until) await new Promise((resolve) => setTimeout(resolve, 250));
    assert.equal(await count(), 0, 'the old entry is gone');
    assert.equal((await entries(`resource_uid=${fresh}`)).length, 1, 'a fresh entry stays');
  });
});

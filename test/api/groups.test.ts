// Groups over REST and gRPC: CRUD, PATCH mask semantics, uidp filters, the
// delete-when-not-empty guard and the scope of identities made in a subgroup.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Code, ConnectError } from '@connectrpc/connect';
import { GroupsService } from '../../src/gen/berth/iam/v2/groups_pb.js';
import { useBerth, type Berth } from '../harness/berth-process.js';
import { grpcClient, identityWithRole, rest } from '../harness/api-client.js';

const detail = (body: { details: { '@type': string }[] }, type: string) =>
  // biome-ignore lint/suspicious/noExplicitAny: error details are read as loose JSON in assertions
  body.details.find((d) => d['@type'] === `type.googleapis.com/google.rpc.${type}`) as any;

describe('iam groups', () => {
  let berth: Berth;
  let token: string;
  useBerth((b, t) => {
    berth = b;
    token = t;
  });

  it('creates, gets, lists, patches and deletes a subgroup over REST', async () => {
    const created = await rest(berth.url, 'POST', `/iam/v2/groups/${berth.orgUid}`, { token, body: { name: 'team-a', description: 'first' } });
    assert.equal(created.status, 200, created.text);
    assert.match(created.json.uid, new RegExp(`^${berth.orgUid}/[0-9a-f]{16}$`));
    assert.match(created.json.createTime, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    const uid = created.json.uid as string;

    const got = await rest(berth.url, 'GET', `/iam/v2/groups/${uid}`, { token });
    assert.equal(got.status, 200);
    assert.deepEqual(got.json, created.json);

    const patched = await rest(berth.url, 'PATCH', `/iam/v2/groups/${uid}`, { token, body: { description: 'changed' } });
    assert.equal(patched.status, 200, patched.text);
    assert.equal(patched.json.description, 'changed');
    assert.equal(patched.json.name, 'team-a');

    const masked = await rest(berth.url, 'PATCH', `/iam/v2/groups/${uid}?updateMask=description`, { token, body: { name: 'ignored', description: 'masked' } });
    assert.equal(masked.status, 200, masked.text);
    assert.equal(masked.json.name, 'team-a');
    assert.equal(masked.json.description, 'masked');

    // "*" replaces every writable field: the absent description is cleared.
    const star = await rest(berth.url, 'PATCH', `/iam/v2/groups/${uid}?updateMask=*`, { token, body: { name: 'team-b' } });
    assert.equal(star.status, 200, star.text);
    assert.equal(star.json.name, 'team-b');
    assert.equal(star.json.description ?? '', '');

    const listed = await rest(berth.url, 'GET', `/iam/v2/groups?name=team-b`, { token });
    assert.equal(listed.status, 200, listed.text);
    assert.equal(listed.json.totalCount, '1');
    assert.equal(listed.json.groups[0].uid, uid);

    const del = await rest(berth.url, 'DELETE', `/iam/v2/groups/${uid}`, { token });
    assert.equal(del.status, 200, del.text);
    assert.equal(del.text, '{}');
    const gone = await rest(berth.url, 'GET', `/iam/v2/groups/${uid}`, { token });
    assert.equal(gone.status, 404);
    assert.equal(gone.json.code, 5);
    assert.ok(detail(gone.json, 'ResourceInfo'));
  });

  it('serves groups over gRPC', async () => {
    const client = grpcClient(GroupsService, berth.url, token);
    const g = await client.createGroup({ parent: berth.orgUid, group: { name: 'grpc-group' } });
    const got = await client.getGroup({ uid: g.uid });
    assert.equal(got.name, 'grpc-group');
    const viaRest = await rest(berth.url, 'GET', `/iam/v2/groups/${g.uid}`, { token });
    assert.equal(viaRest.json.name, 'grpc-group');
  });

  it('validates the name and 404s on a missing parent', async () => {
    const empty = await rest(berth.url, 'POST', `/iam/v2/groups/${berth.orgUid}`, { token, body: { description: 'x' } });
    assert.equal(empty.status, 400);
    assert.equal(empty.json.code, 3);
    assert.equal(detail(empty.json, 'BadRequest').fieldViolations[0].field, 'group.name');
    const long = await rest(berth.url, 'POST', `/iam/v2/groups/${berth.orgUid}`, { token, body: { name: 'x'.repeat(64) } });
    assert.equal(long.status, 400);
    const missing = await rest(berth.url, 'POST', `/iam/v2/groups/${berth.orgUid}/0000000000000000`, { token, body: { name: 'orphan' } });
    assert.equal(missing.status, 404, missing.text);
    assert.ok(detail(missing.json, 'ResourceInfo'));
  });

  it('creates a root organization owned by its creator, with unique names', async () => {
    // REST: POST /iam/v2/groups (no parent); gRPC: CreateGroup with parent "".
    const client = grpcClient(GroupsService, berth.url, token);
    const viaRest = await rest(berth.url, 'POST', '/iam/v2/groups', { token, body: { name: 'rest-org' } });
    assert.equal(viaRest.status, 200, viaRest.text);
    assert.match(viaRest.json.uid, /^[0-9a-f]{40}$/);
    const org = await client.createGroup({ parent: '', group: { name: 'second-org' } });
    assert.match(org.uid, /^[0-9a-f]{40}$/);
    // The creator owns it: it can create a subgroup there.
    const sub = await rest(berth.url, 'POST', `/iam/v2/groups/${org.uid}`, { token, body: { name: 'inside' } });
    assert.equal(sub.status, 200, sub.text);
    await assert.rejects(client.createGroup({ parent: '', group: { name: 'second-org' } }), (err: unknown) => {
      assert.ok(err instanceof ConnectError);
      assert.equal(err.code, Code.AlreadyExists);
      return true;
    });
    const firstName = (await rest(berth.url, 'GET', `/iam/v2/groups/${berth.orgUid}`, { token })).json.name as string;
    const rename = await rest(berth.url, 'PATCH', `/iam/v2/groups/${org.uid}`, { token, body: { name: firstName } });
    assert.equal(rename.status, 409, rename.text);
    assert.equal(rename.json.code, 6);
  });

  it('refuses to delete a group with a child repo', async () => {
    const g = await rest(berth.url, 'POST', `/iam/v2/groups/${berth.orgUid}`, { token, body: { name: 'has-repo' } });
    const repo = await rest(berth.url, 'POST', `/registry/v2/repos/${g.json.uid}`, { token, body: { name: 'child' } });
    assert.equal(repo.status, 200, repo.text);
    const del = await rest(berth.url, 'DELETE', `/iam/v2/groups/${g.json.uid}`, { token });
    assert.equal(del.status, 400, del.text);
    assert.equal(del.json.code, 9);
    assert.equal(del.json.message, 'Precondition failed: cannot delete group with child repos');
    assert.equal(detail(del.json, 'ErrorInfo').reason, 'FAILED_PRECONDITION');
    assert.equal(detail(del.json, 'PreconditionFailure').violations[0].type, 'RESOURCE_NOT_EMPTY');
    const still = await rest(berth.url, 'GET', `/iam/v2/groups/${g.json.uid}`, { token });
    assert.equal(still.status, 200);
  });

  it('filters by uidp.children_of and uidp.descendants_of', async () => {
    const a = (await rest(berth.url, 'POST', `/iam/v2/groups/${berth.orgUid}`, { token, body: { name: 'tree-a' } })).json.uid as string;
    const b = (await rest(berth.url, 'POST', `/iam/v2/groups/${a}`, { token, body: { name: 'tree-b' } })).json.uid as string;
    const c = (await rest(berth.url, 'POST', `/iam/v2/groups/${b}`, { token, body: { name: 'tree-c' } })).json.uid as string;
    const children = await rest(berth.url, 'GET', `/iam/v2/groups?uidp.children_of=${a}`, { token });
    assert.deepEqual(
      children.json.groups.map((g: { uid: string }) => g.uid),
      [b],
    );
    const desc = await rest(berth.url, 'GET', `/iam/v2/groups?uidp.descendants_of=${a}`, { token });
    assert.deepEqual(desc.json.groups.map((g: { uid: string }) => g.uid).sort(), [b, c].sort());
  });

  it('an identity created under a subgroup cannot reach the registry resources of the root group', async () => {
    const repo = await rest(berth.url, 'POST', `/registry/v2/repos/${berth.orgUid}`, { token, body: { name: 'root-only' } });
    assert.equal(repo.status, 200, repo.text);
    const sub = (await rest(berth.url, 'POST', `/iam/v2/groups/${berth.orgUid}`, { token, body: { name: 'scoped' } })).json.uid as string;
    const who = await identityWithRole(berth.url, token, sub, 'viewer', sub);
    const get = await rest(berth.url, 'GET', `/registry/v2/repos/${repo.json.uid}`, { token: who.token });
    assert.equal(get.status, 403, get.text);
    const list = await rest(berth.url, 'GET', `/registry/v2/repos`, { token: who.token });
    assert.equal(list.status, 200, list.text);
    const rootRepos = (list.json.repos ?? []).filter((r: { uid: string }) => !r.uid.startsWith(`${sub}/`));
    assert.deepEqual(rootRepos, []);
  });
});

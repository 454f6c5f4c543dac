// Roles over REST and gRPC: built-ins visible to all, custom roles scoped, anti-escalation.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Code, ConnectError } from '@connectrpc/connect';
import { RolesService } from '../../src/gen/berth/iam/v2/roles_pb.js';
import { Capability } from '../../src/gen/berth/capabilities/v1/capabilities_pb.js';
import { useBerth, type Berth } from '../harness/berth-process.js';
import { grpcClient, identityWithRole, rest } from '../harness/api-client.js';

const VIEWER_UID = '63921b2c44617e3f2603851537be0123af4a57d7';

describe('iam roles', () => {
  let berth: Berth;
  let token: string;
  useBerth((b, t) => {
    berth = b;
    token = t;
  });

  it('lists roles without a scope, built-ins included', async () => {
    const r = await rest(berth.url, 'GET', '/iam/v2/roles', { token });
    assert.equal(r.status, 200, r.text);
    const viewer = r.json.roles.find((x: { name: string }) => x.name === 'viewer');
    assert.equal(viewer.uid, VIEWER_UID);
    assert.equal(viewer.description, 'Viewer Role (built-in)');
    assert.ok(Number(r.json.totalCount) >= 9);
    const byName = await rest(berth.url, 'GET', '/iam/v2/roles?name=viewer', { token });
    assert.equal(byName.json.totalCount, '1');
    const got = await rest(berth.url, 'GET', `/iam/v2/roles/${VIEWER_UID}`, { token });
    assert.equal(got.status, 200, got.text);
    assert.equal(got.json.name, 'viewer');
  });

  it('creates, reads, patches and deletes a custom role', async () => {
    const created = await rest(berth.url, 'POST', `/iam/v2/roles/${berth.orgUid}`, {
      token,
      body: { name: 'tag-reader', description: 'reads tags', capabilities: ['CAP_TAG_LIST', 'CAP_REPO_LIST'] },
    });
    assert.equal(created.status, 200, created.text);
    assert.match(created.json.uid, new RegExp(`^${berth.orgUid}/[0-9a-f]{16}$`));
    assert.deepEqual(created.json.capabilities, ['CAP_REPO_LIST', 'CAP_TAG_LIST']);
    const uid = created.json.uid as string;
    const patched = await rest(berth.url, 'PATCH', `/iam/v2/roles/${uid}`, { token, body: { description: 'changed' } });
    assert.equal(patched.status, 200, patched.text);
    assert.equal(patched.json.description, 'changed');
    assert.equal(patched.json.name, 'tag-reader');
    assert.deepEqual(patched.json.capabilities, ['CAP_REPO_LIST', 'CAP_TAG_LIST']);
    const listed = await rest(berth.url, 'GET', '/iam/v2/roles?name=tag-reader', { token });
    assert.equal(listed.json.totalCount, '1');
    const del = await rest(berth.url, 'DELETE', `/iam/v2/roles/${uid}`, { token });
    assert.equal(del.status, 200, del.text);
    assert.equal(del.text, '{}');
    const gone = await rest(berth.url, 'GET', `/iam/v2/roles/${uid}`, { token });
    assert.equal(gone.status, 404);
  });

  it('rejects a role without capabilities or with an internal one', async () => {
    const none = await rest(berth.url, 'POST', `/iam/v2/roles/${berth.orgUid}`, { token, body: { name: 'empty' } });
    assert.equal(none.status, 400);
    const bad = none.json.details.find((d: { '@type': string }) => d['@type'] === 'type.googleapis.com/google.rpc.BadRequest');
    assert.equal(bad.fieldViolations[0].field, 'role.capabilities');
    const internal = await rest(berth.url, 'POST', `/iam/v2/roles/${berth.orgUid}`, { token, body: { name: 'x', capabilities: ['CAP_INTERNAL'] } });
    assert.equal(internal.status, 400);
    const missingParent = await rest(berth.url, 'POST', `/iam/v2/roles/${berth.orgUid}/0000000000000000`, {
      token,
      body: { name: 'x', capabilities: ['CAP_TAG_LIST'] },
    });
    assert.equal(missingParent.status, 404);
  });

  it('refuses to change built-in roles and to delete a bound role', async () => {
    const del = await rest(berth.url, 'DELETE', `/iam/v2/roles/${VIEWER_UID}`, { token });
    assert.ok(del.status === 400 || del.status === 403, del.text);
    const role = await rest(berth.url, 'POST', `/iam/v2/roles/${berth.orgUid}`, { token, body: { name: 'bound', capabilities: ['CAP_TAG_LIST'] } });
    const who = await identityWithRole(berth.url, token, berth.orgUid, undefined, berth.orgUid);
    const b = await rest(berth.url, 'POST', `/iam/v2/roleBindings/${berth.orgUid}`, { token, body: { identityUid: who.uid, roleUid: role.json.uid } });
    assert.equal(b.status, 200, b.text);
    const refused = await rest(berth.url, 'DELETE', `/iam/v2/roles/${role.json.uid}`, { token });
    assert.equal(refused.status, 400, refused.text);
    assert.equal(refused.json.code, 9);
    const pf = refused.json.details.find((d: { '@type': string }) => d['@type'] === 'type.googleapis.com/google.rpc.PreconditionFailure');
    assert.equal(pf.violations[0].type, 'RESOURCE_IN_USE');
  });

  it('hides custom roles from callers without roles.list there, and blocks escalation', async () => {
    const role = await rest(berth.url, 'POST', `/iam/v2/roles/${berth.orgUid}`, { token, body: { name: 'secret', capabilities: ['CAP_TAG_LIST'] } });
    const puller = await identityWithRole(berth.url, token, berth.orgUid, 'registry.pull', berth.orgUid);
    const list = await rest(berth.url, 'GET', '/iam/v2/roles', { token: puller.token });
    assert.equal(list.status, 200, list.text);
    assert.ok(list.json.roles.some((r: { uid: string }) => r.uid === VIEWER_UID));
    assert.ok(!list.json.roles.some((r: { name: string }) => r.name === 'secret'));
    const get = await rest(berth.url, 'GET', `/iam/v2/roles/${role.json.uid}`, { token: puller.token });
    assert.equal(get.status, 403);
    const builtin = await rest(berth.url, 'GET', `/iam/v2/roles/${VIEWER_UID}`, { token: puller.token });
    assert.equal(builtin.status, 200);
    // limited_owner cannot create roles at all; a custom roles-admin cannot grant what it lacks.
    const admin = await rest(berth.url, 'POST', `/iam/v2/roles/${berth.orgUid}`, {
      token,
      body: { name: 'roles-admin', capabilities: ['CAP_IAM_ROLES_CREATE', 'CAP_TAG_LIST'] },
    });
    assert.equal(admin.status, 200, admin.text);
    const who = await identityWithRole(berth.url, token, berth.orgUid, 'roles-admin', berth.orgUid);
    const ok = await rest(berth.url, 'POST', `/iam/v2/roles/${berth.orgUid}`, { token: who.token, body: { name: 'sub', capabilities: ['CAP_TAG_LIST'] } });
    assert.equal(ok.status, 200, ok.text);
    const esc = await rest(berth.url, 'POST', `/iam/v2/roles/${berth.orgUid}`, { token: who.token, body: { name: 'esc', capabilities: ['CAP_REPO_DELETE'] } });
    assert.equal(esc.status, 403, esc.text);
  });

  it('refuses a role update granting what the caller lacks, naming what is missing', async () => {
    const admin = await rest(berth.url, 'POST', `/iam/v2/roles/${berth.orgUid}`, {
      token,
      body: { name: 'roles-updater', capabilities: ['CAP_IAM_ROLES_CREATE', 'CAP_IAM_ROLES_UPDATE', 'CAP_TAG_LIST', 'CAP_REPO_LIST'] },
    });
    assert.equal(admin.status, 200, admin.text);
    const who = await identityWithRole(berth.url, token, berth.orgUid, 'roles-updater', berth.orgUid);
    const mine = await rest(berth.url, 'POST', `/iam/v2/roles/${berth.orgUid}`, { token: who.token, body: { name: 'mine', capabilities: ['CAP_TAG_LIST'] } });
    assert.equal(mine.status, 200, mine.text);
    const within = await rest(berth.url, 'PATCH', `/iam/v2/roles/${mine.json.uid}`, {
      token: who.token,
      body: { capabilities: ['CAP_TAG_LIST', 'CAP_REPO_LIST'] },
    });
    assert.equal(within.status, 200, within.text);
    const esc = await rest(berth.url, 'PATCH', `/iam/v2/roles/${mine.json.uid}`, {
      token: who.token,
      body: { capabilities: ['CAP_TAG_LIST', 'CAP_REPO_DELETE', 'CAP_IAM_GROUPS_DELETE'] },
    });
    assert.equal(esc.status, 403, esc.text);
    assert.match(esc.json.message, /repo\.delete/);
    assert.match(esc.json.message, /groups\.delete/);
    assert.doesNotMatch(esc.json.message, /tag\.list/);
    const created = await rest(berth.url, 'POST', `/iam/v2/roles/${berth.orgUid}`, {
      token: who.token,
      body: { name: 'esc2', capabilities: ['CAP_REPO_CREATE'] },
    });
    assert.equal(created.status, 403, created.text);
    assert.match(created.json.message, /repo\.create/);
    const unchanged = await rest(berth.url, 'GET', `/iam/v2/roles/${mine.json.uid}`, { token });
    assert.deepEqual(unchanged.json.capabilities, ['CAP_REPO_LIST', 'CAP_TAG_LIST']);
    // Emptying a role is refused like creating an empty one.
    const empty = await rest(berth.url, 'PATCH', `/iam/v2/roles/${mine.json.uid}?updateMask=capabilities`, { token, body: {} });
    assert.equal(empty.status, 400, empty.text);
  });

  it('accepts capabilities by friendly name as well as enum name, and refuses unknown ones', async () => {
    const created = await rest(berth.url, 'POST', `/iam/v2/roles/${berth.orgUid}`, {
      token,
      body: { name: 'friendly', capabilities: ['repo.list', 'CAP_TAG_LIST', 'manifest.list'] },
    });
    assert.equal(created.status, 200, created.text);
    assert.deepEqual(created.json.capabilities, ['CAP_REPO_LIST', 'CAP_MANIFEST_LIST', 'CAP_TAG_LIST']);
    const patched = await rest(berth.url, 'PATCH', `/iam/v2/roles/${created.json.uid}`, { token, body: { capabilities: ['tag.list'] } });
    assert.equal(patched.status, 200, patched.text);
    assert.deepEqual(patched.json.capabilities, ['CAP_TAG_LIST']);
    for (const bad of ['repo.nope', 'REPO_LIST', 'Repo.List']) {
      const r = await rest(berth.url, 'POST', `/iam/v2/roles/${berth.orgUid}`, { token, body: { name: 'bad', capabilities: [bad] } });
      assert.equal(r.status, 400, `${bad}: ${r.text}`);
    }
  });

  it('serves roles over gRPC', async () => {
    const client = grpcClient(RolesService, berth.url, token);
    const role = await client.createRole({ parent: berth.orgUid, role: { name: 'grpc-role', capabilities: [Capability.CAP_TAG_LIST] } });
    const got = await client.getRole({ uid: role.uid });
    assert.equal(got.name, 'grpc-role');
    await assert.rejects(client.deleteRole({ uid: `${berth.orgUid}/0000000000000000` }), (err: unknown) => {
      assert.ok(err instanceof ConnectError);
      assert.equal(err.code, Code.NotFound);
      return true;
    });
  });

  it('answers BUILTIN_ROLE (400) to updating or deleting a built-in role', async () => {
    for (const [method, body] of [
      ['PATCH', { description: 'mine' }],
      ['DELETE', undefined],
    ] as const) {
      const r = await rest(berth.url, method, `/iam/v2/roles/${VIEWER_UID}`, { token, body });
      assert.equal(r.status, 400, r.text);
      assert.equal(r.json.code, 9);
      const pf = r.json.details.find((d: { '@type': string }) => d['@type'].endsWith('PreconditionFailure'));
      assert.equal(pf.violations[0].type, 'BUILTIN_ROLE');
    }
    const client = grpcClient(RolesService, berth.url, token);
    await assert.rejects(client.deleteRole({ uid: VIEWER_UID }), (err: unknown) => err instanceof ConnectError && err.code === Code.FailedPrecondition);
    // Authentication still comes first.
    const anon = await rest(berth.url, 'DELETE', `/iam/v2/roles/${VIEWER_UID}`);
    assert.equal(anon.status, 401);
    const still = await rest(berth.url, 'GET', `/iam/v2/roles/${VIEWER_UID}`, { token });
    assert.equal(still.json.description, 'Viewer Role (built-in)');
  });
});

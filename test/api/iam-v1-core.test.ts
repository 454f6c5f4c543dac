// /iam/v1 beside /iam/v2, part 1: groups, identities, roles and role bindings.
// Each v1 operation runs through REST and gRPC on the same data as its v2
// twin (a v1 create is visible in v2 and back), with the v1 shapes pinned
// against the reference's field names (`id`, `created_at`, `items`,
// capabilities by name), PUT as full replacement, an empty 200 list for a
// missing resource, and v1's failure for a blocked delete.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Code, ConnectError } from '@connectrpc/connect';
import { Groups } from '../../src/gen/berth/iam/v1/groups_pb.js';
import { Identities } from '../../src/gen/berth/iam/v1/identities_pb.js';
import { RoleBindings } from '../../src/gen/berth/iam/v1/role_bindings_pb.js';
import { Roles } from '../../src/gen/berth/iam/v1/roles_pb.js';
import { grpcClient, identityWithRole, rest, type RestResult } from '../harness/api-client.js';
import { useBerth, type Berth } from '../harness/berth-process.js';
import { sqlQuery } from '../harness/database.js';

const VIEWER = '63921b2c44617e3f2603851537be0123af4a57d7';
const TIME = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;
const JWKS = JSON.stringify({
  keys: [{ kty: 'EC', crv: 'P-256', x: 'f83OJ3D2xF1Bg8vub9tLe1gHMzV76e8Tus9uPHvRVEU', y: 'x_FEzRu9m36HLN_tue659LNpXW6pCyStikYjKIWI5a0' }],
});
const PRECONDITION_FAILURE = 'type.googleapis.com/google.rpc.PreconditionFailure';

describe('iam v1 beside v2: groups, identities, roles, role bindings', () => {
  let berth: Berth;
  let token: string;
  useBerth((b, t) => {
    berth = b;
    token = t;
  });
  const api = (method: string, path: string, body?: unknown) => rest(berth.url, method, path, { token, body });
  const ok = (r: RestResult) => {
    assert.equal(r.status, 200, r.text);
    return r.json;
  };
  const group = async (name: string) => ok(await api('POST', `/iam/v2/groups/${berth.orgUid}`, { name })).uid as string;
  /** 400 INVALID_ARGUMENT naming `field`. */
  const invalid = (r: RestResult, field: string) => {
    assert.equal(r.status, 400, r.text);
    assert.equal(r.json.code, Code.InvalidArgument);
    const bad = r.json.details.find((d: { '@type': string }) => d['@type'] === 'type.googleapis.com/google.rpc.BadRequest');
    assert.ok(
      bad?.fieldViolations.some((v: { field: string }) => v.field === field),
      r.text,
    );
  };
  /** v1's failure for a blocked delete: FAILED_PRECONDITION without v2's PreconditionFailure. */
  const blockedV1 = (r: RestResult) => {
    assert.equal(r.status, 400, r.text);
    assert.equal(r.json.code, Code.FailedPrecondition);
    assert.ok(!r.json.details.some((d: { '@type': string }) => d['@type'] === PRECONDITION_FAILURE), r.text);
  };

  it('groups: create, PUT, list and delete in v1 over the same groups as v2', async () => {
    const created = ok(await api('POST', `/iam/v1/groups/${berth.orgUid}`, { name: 'v1-team', description: 'd' }));
    assert.deepEqual(Object.keys(created).sort(), ['description', 'id', 'name', 'verified']);
    assert.match(created.id, new RegExp(`^${berth.orgUid}/[0-9a-f]{16}$`));
    const id = created.id as string;
    assert.equal(ok(await api('GET', `/iam/v2/groups/${id}`)).description, 'd');
    ok(await api('PATCH', `/iam/v2/groups/${id}`, { description: 'from v2' }));
    assert.deepEqual(ok(await api('GET', `/iam/v1/groups?id=${encodeURIComponent(id)}`)), {
      items: [{ id, name: 'v1-team', description: 'from v2', verified: false }],
    });
    // PUT replaces: the description left out is reset.
    assert.deepEqual(ok(await api('PUT', `/iam/v1/groups/${id}`, { name: 'v1-renamed' })), { id, name: 'v1-renamed', description: '', verified: false });
    assert.equal(ok(await api('GET', `/iam/v2/groups/${id}`)).description, '');

    const client = grpcClient(Groups, berth.url, token);
    const child = await client.create({ parent: id, group: { name: 'v1-child' } });
    assert.equal((await client.update({ id: child.id, name: 'v1-child', description: 'grpc' })).description, 'grpc');
    const listed = await client.list({ uidp: { childrenOf: id } });
    assert.deepEqual(
      listed.items.map((g) => [g.id, g.description]),
      [[child.id, 'grpc']],
    );
    assert.deepEqual(ok(await api('GET', `/iam/v1/groups?name=v1-renamed&uidp.children_of=${berth.orgUid}`)).items.length, 1);

    // A blocked delete: v1 keeps its failure, v2 names the precondition.
    blockedV1(await api('DELETE', `/iam/v1/groups/${id}`));
    const v2 = await api('DELETE', `/iam/v2/groups/${id}`);
    assert.ok(v2.json.details.some((d: { '@type': string }) => d['@type'] === PRECONDITION_FAILURE));
    await assert.rejects(client.delete({ id }), (e) => ConnectError.from(e).code === Code.FailedPrecondition);

    await client.delete({ id: child.id });
    assert.deepEqual(ok(await api('DELETE', `/iam/v1/groups/${id}`)), {});
    // Missing: an empty list in v1 (NOT_FOUND in v2); deleting again is NOT_FOUND in both.
    assert.deepEqual(ok(await api('GET', `/iam/v1/groups?id=${encodeURIComponent(id)}`)), { items: [] });
    assert.equal((await api('GET', `/iam/v2/groups/${id}`)).status, 404);
    assert.equal((await api('DELETE', `/iam/v1/groups/${id}`)).status, 404);

    invalid(await api('GET', '/iam/v1/groups?id=nope'), 'id');
    invalid(await api('GET', '/iam/v1/groups?uidp.children_of=zzz'), 'uidp.children_of');
    invalid(await api('POST', `/iam/v1/groups/${berth.orgUid}`, { name: '' }), 'group.name');
    invalid(await api('PUT', `/iam/v1/groups/${berth.orgUid}`, { name: 'x'.repeat(64) }), 'group.name');
    assert.equal((await api('PUT', '/iam/v1/groups/NOT-A-UID', { name: 'x' })).status, 400);
  });

  it('identities: v1 shapes (created_at, static with expiration), PUT, list, lookup and delete', async () => {
    const folder = await group('v1-identities');
    const body = { name: 'ci bot', description: 'ci', claimMatch: { issuer: 'https://ci.example', subject: 'repo:a' } };
    const created = ok(await api('POST', `/iam/v1/identities/${folder}`, body));
    assert.deepEqual(Object.keys(created).sort(), ['claimMatch', 'created_at', 'description', 'id', 'lastSeen', 'name', 'updated_at']);
    assert.match(created.created_at, TIME);
    const id = created.id as string;
    const v2 = ok(await api('GET', `/iam/v2/identities/${id}`));
    assert.deepEqual([v2.name, v2.claimMatch, v2.createTime], ['ci bot', { ...body.claimMatch, claims: {}, claimPatterns: {} }, created.created_at]);

    // PUT replaces: description reset, relationship replaced by static keys (v1 `static`, `expiration`).
    const put = ok(await api('PUT', `/iam/v1/identities/${id}`, { name: 'ci bot', static: { issuer: 'i', subject: 's', issuerKeys: JWKS } }));
    assert.equal(put.description, '');
    assert.equal(put.claimMatch, undefined);
    assert.deepEqual(Object.keys(put.static).sort(), ['audiences', 'expiration', 'issuer', 'issuerKeys', 'subject']);
    const keys = ok(await api('GET', `/iam/v2/identities/${id}`)).staticKeys;
    assert.equal(keys.expirationTime, put.static.expiration);
    // A v2 change shows in v1.
    ok(await api('PATCH', `/iam/v2/identities/${id}`, { description: 'v2' }));
    const client = grpcClient(Identities, berth.url, token);
    const listed = await client.list({ uidp: { childrenOf: folder } });
    assert.deepEqual(
      listed.items.map((i) => [i.id, i.description, i.relationship.case]),
      [[id, 'v2', 'static']],
    );
    assert.deepEqual(ok(await api('GET', `/iam/v1/identities?id=${encodeURIComponent(`${folder}/0123456789abcdef`)}`)), { items: [] });

    // Lookup: the same id v2's LookupIdentity derives.
    const q = 'issuer=https%3A%2F%2Fissuer.example&subject=alice';
    const looked = ok(await api('GET', `/iam/v1/identities/lookup?${q}`));
    assert.equal(looked.id, ok(await api('GET', `/iam/v2/identities:lookupIdentity?${q}`)).uid);
    assert.equal((await client.lookup({ issuer: 'https://issuer.example', subject: 'alice' })).id, looked.id);
    invalid(await api('GET', '/iam/v1/identities/lookup?issuer=x'), 'subject');

    invalid(await api('GET', '/iam/v1/identities?id=bad'), 'id');
    invalid(await api('POST', `/iam/v1/identities/${folder}`, { name: 'BAD NAME' }), 'name');
    const badIssuer = await api('PUT', `/iam/v1/identities/${id}`, { name: 'x', claimMatch: { issuer: 'not a url', subject: 's' } });
    assert.equal(badIssuer.status, 400, badIssuer.text);
    assert.match(badIssuer.text, /issuer/);
    await client.delete({ id });
    assert.equal((await api('GET', `/iam/v2/identities/${id}`)).status, 404);
    assert.equal((await api('DELETE', `/iam/v1/identities/${id}`)).status, 404);
  });

  it('roles: capabilities as names, PUT, list by parent and name, built-ins and a role in use', async () => {
    const folder = await group('v1-roles');
    const created = ok(await api('POST', `/iam/v1/roles/${folder}`, { name: 'reader', description: 'd', capabilities: ['tag.list', 'CAP_REPO_LIST'] }));
    assert.deepEqual(created, { id: created.id, name: 'reader', description: 'd', capabilities: ['repo.list', 'tag.list'] });
    const id = created.id as string;
    assert.deepEqual(ok(await api('GET', `/iam/v2/roles/${id}`)).capabilities, ['CAP_REPO_LIST', 'CAP_TAG_LIST']);
    const put = ok(await api('PUT', `/iam/v1/roles/${id}`, { name: 'reader', capabilities: ['repo.list'] }));
    assert.deepEqual(put, { id, name: 'reader', description: '', capabilities: ['repo.list'] });

    const client = grpcClient(Roles, berth.url, token);
    assert.deepEqual(
      (await client.list({ parent: folder })).items.map((r) => r.id),
      [id],
    );
    const viewer = (await client.list({ name: 'viewer' })).items;
    assert.equal(viewer.length, 1);
    assert.ok(viewer[0].capabilities.includes('repo.list'), viewer[0].capabilities.join());
    assert.deepEqual(ok(await api('GET', `/iam/v1/roles?parent=${folder}&name=nothing`)), { items: [] });

    // Built-in roles stay immutable; a role in use fails the v1 way.
    const builtin = await api('PUT', `/iam/v1/roles/${VIEWER}`, { name: 'viewer', capabilities: ['repo.list'] });
    assert.equal(builtin.json.code, Code.FailedPrecondition);
    const who = await identityWithRole(berth.url, token, berth.orgUid, undefined, folder);
    const binding = ok(await api('POST', `/iam/v1/rolebindings/${folder}`, { identity: who.uid, role: id }));
    blockedV1(await api('DELETE', `/iam/v1/roles/${id}`));
    ok(await api('DELETE', `/iam/v2/roleBindings/${binding.id}`));
    await client.delete({ id });
    assert.deepEqual(ok(await api('GET', `/iam/v1/roles?id=${encodeURIComponent(id)}`)), { items: [] });

    invalid(await api('POST', `/iam/v1/roles/${folder}`, { name: 'x', capabilities: ['no.such'] }), 'role.capabilities');
    invalid(await api('POST', `/iam/v1/roles/${folder}`, { name: '', capabilities: ['repo.list'] }), 'role.name');
    invalid(await api('GET', '/iam/v1/roles?parent=bad'), 'parent');
    invalid(await api('GET', '/iam/v1/roles?id=bad'), 'id');
  });

  it('role bindings: create, batch, PUT of the role, hydrated list and delete', async () => {
    const folder = await group('v1-bindings');
    const a = await identityWithRole(berth.url, token, berth.orgUid, undefined, folder);
    const b = await identityWithRole(berth.url, token, berth.orgUid, undefined, folder);
    const editor = ok(await api('GET', '/iam/v2/roles?name=editor')).roles[0].uid as string;
    const created = ok(await api('POST', `/iam/v1/rolebindings/${folder}`, { identity: a.uid, role: VIEWER }));
    assert.deepEqual(created, { id: created.id, identity: a.uid, group: folder, role: VIEWER });
    const v2 = ok(await api('GET', `/iam/v2/roleBindings/${created.id}`));
    assert.deepEqual([v2.identity.uid, v2.role.uid, v2.group.uid], [a.uid, VIEWER, folder]);

    // batch/{parent}: the body is the list of bindings.
    const batch = ok(await api('POST', `/iam/v1/rolebindings/batch/${folder}`, [{ identity: b.uid, role: VIEWER }]));
    assert.deepEqual(
      batch.roleBindings.map((x: { identity: string; group: string }) => [x.identity, x.group]),
      [[b.uid, folder]],
    );

    const put = ok(await api('PUT', `/iam/v1/rolebindings/${created.id}`, { identity: a.uid, role: editor }));
    assert.equal(put.role, editor);
    assert.equal(ok(await api('GET', `/iam/v2/roleBindings/${created.id}`)).role.uid, editor);
    invalid(await api('PUT', `/iam/v1/rolebindings/${created.id}`, { identity: b.uid, role: VIEWER }), 'identity');

    const listed = ok(await api('GET', `/iam/v1/rolebindings?id=${encodeURIComponent(created.id)}`)).items;
    assert.equal(listed.length, 1);
    assert.deepEqual(Object.keys(listed[0]).sort(), [
      'claimMatchIssuer',
      'claimMatchSubject',
      'created_at',
      'email',
      'emailUnverified',
      'group',
      'id',
      'identity',
      'role',
    ]);
    assert.deepEqual(listed[0].group, { id: folder, name: 'v1-bindings', description: '', verified: false });
    assert.deepEqual([listed[0].role.id, listed[0].role.name], [editor, 'editor']);
    assert.equal(listed[0].created_at, v2.createTime);

    const client = grpcClient(RoleBindings, berth.url, token);
    const all = await client.list({ uidp: { childrenOf: folder } });
    assert.equal(all.items.length, 2);
    const more = await client.createBatch({ parent: folder, roleBindings: [{ identity: b.uid, role: editor }] });
    assert.equal((await client.update({ id: created.id, identity: a.uid, role: VIEWER })).role, VIEWER);
    for (const x of [...all.items, ...more.roleBindings]) await client.delete({ id: x.id });
    assert.deepEqual(ok(await api('GET', `/iam/v1/rolebindings?uidp.children_of=${folder}`)), { items: [] });
    assert.equal((await api('DELETE', `/iam/v1/rolebindings/${created.id}`)).status, 404);

    invalid(await api('POST', `/iam/v1/rolebindings/${folder}`, { identity: a.uid, role: 'nope' }), 'role_binding.role_uid');
    invalid(await api('GET', '/iam/v1/rolebindings?id=nope'), 'id');
    assert.equal((await api('POST', `/iam/v1/rolebindings/batch/${folder}`, [])).status, 400);
    invalid(await api('POST', `/iam/v1/rolebindings/batch/${folder}`, { identity: a.uid, role: VIEWER }), 'body');
  });
  it('answers a v1 List in one piece up to 1000 items, and asks to narrow it beyond', async () => {
    const folder = await group('v1-bound');
    // Planted in one statement: a thousand creates through the API would only be slow.
    const plant = async (from: number, count: number) => {
      const now = new Date().toISOString();
      const values: unknown[] = [];
      const tuples: string[] = [];
      for (let i = from; i < from + count; i++) {
        const at = values.length;
        values.push(`${folder}/${i.toString(16).padStart(16, '0')}`, folder, `g${i}`, '', 0, now, now);
        tuples.push(`($${at + 1}, $${at + 2}, $${at + 3}, $${at + 4}, $${at + 5}, $${at + 6}, $${at + 7})`);
      }
      await sqlQuery(berth, `insert into groups (uid, parent_uid, name, description, verified, create_time, update_time) values ${tuples.join(', ')}`, values);
    };
    await plant(0, 1000);
    const all = ok(await api('GET', `/iam/v1/groups?uidp.children_of=${folder}`)).items.map((g: { id: string }) => g.id);
    assert.equal(all.length, 1000);
    assert.deepEqual(all, [...all].sort());
    await plant(1000, 1);
    const over = await api('GET', `/iam/v1/groups?uidp.children_of=${folder}`);
    assert.equal(over.status, 400, over.text.slice(0, 300));
    assert.equal(over.json.code, Code.FailedPrecondition);
    assert.match(over.json.message, /\/iam\/v2\/groups/);
    const last = `${folder}/${(1000).toString(16).padStart(16, '0')}`;
    assert.equal(ok(await api('GET', `/iam/v1/groups?id=${encodeURIComponent(last)}`)).items.length, 1);
  });
});

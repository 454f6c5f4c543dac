// External group role mappings over REST and gRPC on a real server: CRUD,
// validation, permission before existence, no escalation through a mapping,
// batch delete (missing names skipped, a foreign name refuses the batch),
// paging and default order, and what a mapping keeps from being deleted.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Code, ConnectError } from '@connectrpc/connect';
import { ExternalGroupRoleMappingsService } from '../../src/gen/berth/iam/v2/external_group_role_mappings_pb.js';
import { grpcClient, identityWithRole, rest } from '../harness/api-client.js';
import { useBerth, type Berth } from '../harness/berth-process.js';
import { sqlQuery } from '../harness/database.js';

const VIEWER_UID = '63921b2c44617e3f2603851537be0123af4a57d7';
const M = '/iam/v2/externalGroupRoleMappings';

// biome-ignore lint/suspicious/noExplicitAny: error bodies are read as loose JSON
const violations = (body: any): string[] =>
  (body?.details ?? []).flatMap((d: { fieldViolations?: { field: string }[] }) => (d.fieldViolations ?? []).map((v) => v.field));

describe('iam external group role mappings', () => {
  let berth: Berth;
  let token: string;
  useBerth((b, t) => {
    berth = b;
    token = t;
  });

  async function provider(group = berth.orgUid, name = `idp-${Math.random().toString(16).slice(2, 8)}`): Promise<string> {
    const r = await rest(berth.url, 'POST', `/iam/v2/identityProviders/${group}`, {
      token,
      body: { name, defaultRole: VIEWER_UID, oidc: { issuer: 'https://idp.example.com', clientId: 'berth' } },
    });
    assert.equal(r.status, 200, r.text);
    return r.json.uid;
  }
  const group = async (name: string, parent = berth.orgUid) =>
    (await rest(berth.url, 'POST', `/iam/v2/groups/${parent}`, { token, body: { name } })).json.uid as string;
  const map = (idp: string, body: unknown, tok = token) => rest(berth.url, 'POST', `${M}/${idp}`, { token: tok, body });

  it('creates, reads, lists and deletes a mapping; the scope defaults to the provider group', async () => {
    const idp = await provider();
    const c = await map(idp, { externalGroupId: 'engineering', roleUid: VIEWER_UID });
    assert.equal(c.status, 200, c.text);
    assert.match(c.json.uid, new RegExp(`^${idp}/[0-9a-f]{16}$`));
    assert.deepEqual(
      { ...c.json, uid: undefined, createTime: undefined },
      { uid: undefined, identityProviderUid: idp, externalGroupId: 'engineering', roleUid: VIEWER_UID, scope: berth.orgUid, createTime: undefined },
    );
    assert.match(c.json.createTime, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    assert.deepEqual((await rest(berth.url, 'GET', `${M}/${c.json.uid}`, { token })).json, c.json);
    const listed = await rest(berth.url, 'GET', `${M}?identityProviderUid=${idp}`, { token });
    assert.equal(listed.json.totalCount, '1');
    assert.deepEqual(listed.json.externalGroupRoleMappings, [c.json]);
    const dup = await map(idp, { externalGroupId: 'engineering', roleUid: VIEWER_UID, scope: berth.orgUid });
    assert.equal(dup.status, 409, dup.text);
    const sub = await group('mapped-team');
    const below = await map(idp, { externalGroupId: 'engineering', roleUid: VIEWER_UID, scope: sub });
    assert.equal(below.status, 200, below.text);
    assert.equal(below.json.scope, sub);
    const del = await rest(berth.url, 'DELETE', `${M}/${c.json.uid}`, { token });
    assert.equal(del.status, 200);
    assert.equal(del.text, '{}');
    assert.equal((await rest(berth.url, 'GET', `${M}/${c.json.uid}`, { token })).status, 404);
    assert.equal((await rest(berth.url, 'DELETE', `${M}/${c.json.uid}`, { token })).status, 404);
  });

  it('serves the same over gRPC', async () => {
    const idp = await provider();
    const client = grpcClient(ExternalGroupRoleMappingsService, berth.url, token);
    const m = await client.createExternalGroupRoleMapping({ parent: idp, externalGroupRoleMapping: { externalGroupId: 'ops', roleUid: VIEWER_UID } });
    assert.equal(m.identityProviderUid, idp);
    assert.equal(m.scope, berth.orgUid);
    assert.deepEqual(await client.getExternalGroupRoleMapping({ uid: m.uid }), m);
    const page = await client.listExternalGroupRoleMappings({ identityProviderUid: idp });
    assert.equal(page.totalCount, 1n);
    const batch = await client.batchDeleteExternalGroupRoleMappings({ parent: idp, names: [m.uid] });
    assert.deepEqual(
      batch.externalGroupRoleMappings.map((x) => x.uid),
      [m.uid],
    );
    await assert.rejects(client.getExternalGroupRoleMapping({ uid: m.uid }), (err: unknown) => err instanceof ConnectError && err.code === Code.NotFound);
  });

  it('validates the request', async () => {
    const idp = await provider();
    const missing = await map(idp, {});
    assert.equal(missing.status, 400, missing.text);
    assert.deepEqual(violations(missing.json), ['external_group_role_mapping.external_group_id', 'external_group_role_mapping.role_uid']);
    const control = await map(idp, { externalGroupId: 'a\nb', roleUid: VIEWER_UID });
    assert.deepEqual(violations(control.json), ['external_group_role_mapping.external_group_id']);
    // The scope must be the provider's group or below it.
    const sibling = await group('sibling');
    const subIdp = await provider(await group('idp-home'));
    const outside = await map(subIdp, { externalGroupId: 'g', roleUid: VIEWER_UID, scope: sibling });
    assert.equal(outside.status, 400, outside.text);
    assert.deepEqual(violations(outside.json), ['external_group_role_mapping.scope']);
    assert.deepEqual(violations((await map(idp, { externalGroupId: 'g', roleUid: VIEWER_UID, scope: 'nope' })).json), ['external_group_role_mapping.scope']);
    // A role defined in a subgroup means nothing on the organization.
    const siblingRole = (await rest(berth.url, 'POST', `/iam/v2/roles/${sibling}`, { token, body: { name: 'sib', capabilities: ['CAP_REPO_LIST'] } })).json.uid;
    assert.deepEqual(violations((await map(idp, { externalGroupId: 'g', roleUid: siblingRole })).json), ['external_group_role_mapping.role_uid']);
    // Well formed, but missing.
    assert.equal((await map(idp, { externalGroupId: 'g', roleUid: VIEWER_UID, scope: `${berth.orgUid}/0000000000000000` })).status, 404);
    assert.equal((await map(idp, { externalGroupId: 'g', roleUid: `${berth.orgUid}/0000000000000000` })).status, 404);
    assert.equal((await map(`${berth.orgUid}/0000000000000000`, { externalGroupId: 'g', roleUid: VIEWER_UID })).status, 404);
    assert.equal((await rest(berth.url, 'GET', `${M}?identityProviderUid=${idp}`, { token })).json.totalCount, '0', 'nothing was stored');
  });

  it('checks permission before existence', async () => {
    const idp = await provider();
    const m = (await map(idp, { externalGroupId: 'perm', roleUid: VIEWER_UID })).json.uid as string;
    const nobody = await identityWithRole(berth.url, token, berth.orgUid, undefined, berth.orgUid);
    const absent = `${idp}/0000000000000000`;
    for (const uid of [m, absent, `${'e'.repeat(40)}/0000000000000000/0000000000000000`]) {
      assert.equal((await rest(berth.url, 'GET', `${M}/${uid}`, { token: nobody.token })).status, 403, uid);
      assert.equal((await rest(berth.url, 'DELETE', `${M}/${uid}`, { token: nobody.token })).status, 403, uid);
    }
    for (const parent of [idp, `${berth.orgUid}/0000000000000000`]) {
      assert.equal((await map(parent, { externalGroupId: 'x', roleUid: VIEWER_UID }, nobody.token)).status, 403, parent);
      const batch = await rest(berth.url, 'POST', `${M}:batchDelete`, { token: nobody.token, body: { parent, names: [`${parent}/0000000000000000`] } });
      assert.equal(batch.status, 403, batch.text);
    }
    const list = await rest(berth.url, 'GET', M, { token: nobody.token });
    assert.deepEqual(list.json.externalGroupRoleMappings, []);
  });

  it('lets no one map a role whose capabilities they do not hold', async () => {
    const idp = await provider();
    const caps = ['CAP_IAM_IDENTITY_PROVIDERS_CREATE', 'CAP_IAM_IDENTITY_PROVIDERS_LIST', 'CAP_IAM_ROLE_BINDINGS_CREATE', 'CAP_REPO_LIST'];
    await rest(berth.url, 'POST', `/iam/v2/roles/${berth.orgUid}`, { token, body: { name: 'mapper', capabilities: caps } });
    const weak = (await rest(berth.url, 'POST', `/iam/v2/roles/${berth.orgUid}`, { token, body: { name: 'lister', capabilities: ['CAP_REPO_LIST'] } })).json
      .uid;
    const mapper = await identityWithRole(berth.url, token, berth.orgUid, 'mapper', berth.orgUid);
    const owner = (await rest(berth.url, 'GET', '/iam/v2/roles?name=owner', { token })).json.roles[0].uid;
    for (const role of [VIEWER_UID, owner]) {
      const r = await map(idp, { externalGroupId: 'escalate', roleUid: role }, mapper.token);
      assert.equal(r.status, 403, r.text);
      assert.equal(r.json.code, 7);
    }
    const ok = await map(idp, { externalGroupId: 'fine', roleUid: weak }, mapper.token);
    assert.equal(ok.status, 200, ok.text);
    // Without role_bindings.create, not even a weak role.
    await rest(berth.url, 'POST', `/iam/v2/roles/${berth.orgUid}`, {
      token,
      body: { name: 'mapper-no-bind', capabilities: ['CAP_IAM_IDENTITY_PROVIDERS_CREATE', 'CAP_REPO_LIST'] },
    });
    const noBind = await identityWithRole(berth.url, token, berth.orgUid, 'mapper-no-bind', berth.orgUid);
    assert.equal((await map(idp, { externalGroupId: 'fine2', roleUid: weak }, noBind.token)).status, 403);
  });

  it('batch-deletes, skipping names that no longer exist, and refuses names of another provider', async () => {
    const idp = await provider();
    const otherIdp = await provider();
    const made: string[] = [];
    for (const g of ['a', 'b', 'c']) made.push((await map(idp, { externalGroupId: g, roleUid: VIEWER_UID })).json.uid);
    const foreign = (await map(otherIdp, { externalGroupId: 'a', roleUid: VIEWER_UID })).json.uid as string;
    const batch = (body: unknown) => rest(berth.url, 'POST', `${M}:batchDelete`, { token, body });
    const mixed = await batch({ parent: idp, names: [made[0], foreign] });
    assert.equal(mixed.status, 400, mixed.text);
    assert.deepEqual(violations(mixed.json), ['names[1]']);
    assert.equal((await rest(berth.url, 'GET', `${M}/${made[0]}`, { token })).status, 200, 'nothing deleted');
    assert.deepEqual(violations((await batch({ parent: idp, names: [] })).json), ['names']);
    const tooMany = Array.from({ length: 101 }, (_, i) => `${idp}/${i.toString(16).padStart(16, '0')}`);
    assert.deepEqual(violations((await batch({ parent: idp, names: tooMany })).json), ['names']);
    const gone = `${idp}/0000000000000000`;
    const ok = await batch({ parent: idp, names: [made[1], gone, made[0], made[0]] });
    assert.equal(ok.status, 200, ok.text);
    assert.equal(ok.json.parent, idp);
    assert.deepEqual(
      ok.json.externalGroupRoleMappings.map((m: { uid: string }) => m.uid),
      [made[0], made[1]].sort(),
    );
    const left = await rest(berth.url, 'GET', `${M}?identityProviderUid=${idp}`, { token });
    assert.deepEqual(
      left.json.externalGroupRoleMappings.map((m: { uid: string }) => m.uid),
      [made[2]],
    );
    const again = await batch({ parent: idp, names: [made[0]] });
    assert.equal(again.status, 200);
    assert.deepEqual(again.json.externalGroupRoleMappings, []);
    assert.equal((await rest(berth.url, 'GET', `${M}/${foreign}`, { token })).status, 200);
  });

  it('lists in uid order by default, pages with tokens, and sorts by created_at', async () => {
    const idp = await provider();
    const made: string[] = [];
    for (let i = 0; i < 5; i++) made.push((await map(idp, { externalGroupId: `page-${i}`, roleUid: VIEWER_UID })).json.uid);
    const seen: string[] = [];
    let pageToken = '';
    for (let i = 0; i < 5; i++) {
      const r = await rest(berth.url, 'GET', `${M}?uidp.children_of=${idp}&page_size=2&page_token=${pageToken}`, { token });
      assert.equal(r.status, 200, r.text);
      assert.equal(r.json.totalCount, '5');
      seen.push(...r.json.externalGroupRoleMappings.map((m: { uid: string }) => m.uid));
      pageToken = r.json.nextPageToken;
      if (pageToken === '') break;
    }
    assert.deepEqual(seen, [...made].sort());
    const newest = await rest(berth.url, 'GET', `${M}?identityProviderUid=${idp}&order_by=created_at%20desc&page_size=1`, { token });
    assert.equal(newest.status, 200, newest.text);
    assert.equal(newest.json.externalGroupRoleMappings.length, 1);
    const unknown = await rest(berth.url, 'GET', `${M}?order_by=name`, { token });
    assert.equal(unknown.status, 400);
  });

  it('goes with its provider, and keeps its role and scope group from being deleted', async () => {
    const home = await group('mapping-home');
    const scope = await group('mapping-scope', home);
    const role = (await rest(berth.url, 'POST', `/iam/v2/roles/${home}`, { token, body: { name: 'mapped', capabilities: ['CAP_REPO_LIST'] } })).json
      .uid as string;
    const idp = await provider(home);
    const m = await map(idp, { externalGroupId: 'x', roleUid: role, scope });
    assert.equal(m.status, 200, m.text);
    const delRole = await rest(berth.url, 'DELETE', `/iam/v2/roles/${role}`, { token });
    assert.equal(delRole.status, 400, delRole.text);
    assert.match(delRole.json.message, /used by at least one external group role mapping/);
    const delScope = await rest(berth.url, 'DELETE', `/iam/v2/groups/${scope}`, { token });
    assert.equal(delScope.status, 400, delScope.text);
    assert.equal(delScope.json.message, 'Precondition failed: cannot delete group with child external_group_role_mappings');
    assert.equal((await rest(berth.url, 'DELETE', `/iam/v2/identityProviders/${idp}`, { token })).status, 200);
    assert.equal((await rest(berth.url, 'GET', `${M}/${m.json.uid}`, { token })).status, 404);
    assert.equal((await rest(berth.url, 'DELETE', `/iam/v2/roles/${role}`, { token })).status, 200);
    assert.equal((await rest(berth.url, 'DELETE', `/iam/v2/groups/${scope}`, { token })).status, 200);
  });
  it("refuses to delete a mapping or provider whose cascade would take an organization's last owner binding", async () => {
    const org = (await rest(berth.url, 'POST', '/iam/v2/groups', { token, body: { name: 'mapped-owner.example' } })).json.uid as string;
    const idp = await provider(org);
    const ownerRole = (await rest(berth.url, 'GET', '/iam/v2/roles?name=owner', { token })).json.roles[0].uid as string;
    const m = await map(idp, { externalGroupId: 'admins', roleUid: ownerRole });
    assert.equal(m.status, 200, m.text);
    // The binding a sign in through the provider makes for a member of "admins" (written as the sync writes it).
    const person = await identityWithRole(berth.url, token, org, undefined, org);
    const made = `${org}/${'0123456789abcdef'}`;
    const now = new Date().toISOString();
    await sqlQuery(
      berth,
      'insert into role_bindings (uid, parent_uid, identity_uid, role_uid, mapping_uid, create_time, update_time) values ($1, $2, $3, $4, $5, $6, $6)',
      [made, org, person.uid, ownerRole, m.json.uid, now],
    );
    // The creator steps aside: the mapping-made binding is the organization's only owner binding.
    const mine = (await rest(berth.url, 'GET', `/iam/v2/roleBindings?identity=${berth.ownerIdentity}&group=${org}`, { token })).json.roleBindings[0].uid;
    assert.equal((await rest(berth.url, 'DELETE', `/iam/v2/roleBindings/${mine}`, { token })).status, 200);
    const lastOwner = (r: { status: number; text: string }) => {
      assert.equal(r.status, 400, r.text);
      assert.match(r.text, /LAST_OWNER/);
    };
    lastOwner(await rest(berth.url, 'DELETE', `${M}/${m.json.uid}`, { token: person.token }));
    lastOwner(await rest(berth.url, 'POST', `${M}:batchDelete`, { token: person.token, body: { parent: idp, names: [m.json.uid] } }));
    lastOwner(await rest(berth.url, 'DELETE', `/iam/v2/identityProviders/${idp}`, { token: person.token }));
    assert.equal((await rest(berth.url, 'GET', `/iam/v2/roleBindings/${made}`, { token: person.token })).status, 200);
  });
});
